/** A form's submit handler: keeps the browser from navigating and runs `action` (its promise is the action's own business). */
export function submitWith(action: () => unknown): (event: SubmitEvent) => void {
  return (event) => {
    event.preventDefault();
    void action();
  };
}
