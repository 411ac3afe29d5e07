/** Door transports for sync tests that need the network to fail in a particular way. */
import type { DoorTransport } from '../../client/door/sync/transport';

/**
 * Wraps a transport so that pushes reach the server but their answers are lost on the way back
 * (the door sees a network failure): `initial` of them from the start, one more per `lose()`.
 */
export function answersLost(initial = 0): { wrap: (t: DoorTransport) => DoorTransport; lose(): void } {
  let left = initial;
  return {
    lose: () => void (left += 1),
    wrap: (t) => ({
      ...t,
      async push(input) {
        const answer = await t.push(input);
        if (left > 0) {
          left -= 1;
          throw new TypeError('fetch failed');
        }
        return answer;
      },
    }),
  };
}
