/** One figure a benchmark reports; `pass` says whether `value` meets `target`. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Human-readable goal, e.g. `< 10 ms`. */
  target: string;
  pass: boolean;
}
