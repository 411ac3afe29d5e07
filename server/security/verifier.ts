import { AppError } from '../../shared/errors';

/**
 * The contract's bot check and spam scoring receive the visitor IP on sign-up and on
 * booking submission. svc ships no service of its own: a plugin registers a verifier
 * (e.g. a challenge check or a spam-scoring client) through `ctx.verifiers`.
 */
export interface VisitorCheck {
  /** `submission`: a proposed event (extended edition, docs/api.md#event-submission). */
  kind: 'signup' | 'booking' | 'submission';
  /** The value of svc_rsvp_client_ip / svc_booking_client_ip ('' when the operator turned it off). */
  ip: string;
  email: string;
  name: string;
  /** Free text and answers, for spam scoring. */
  content: Record<string, unknown>;
  /** The request headers a challenge check may need (e.g. a token header), without the caller's cookie and authorization. */
  headers: Record<string, string>;
}

export type VerifierVerdict = { ok: true } | { ok: false; reason: string };

export interface VisitorVerifier {
  name: string;
  verify(check: VisitorCheck): VerifierVerdict | Promise<VerifierVerdict>;
}

export class VisitorVerifiers {
  private readonly list: VisitorVerifier[] = [];

  register(verifier: VisitorVerifier): void {
    this.list.push(verifier);
  }

  get size(): number {
    return this.list.length;
  }

  /** Runs every verifier in order; the first refusal rejects with svc_spam_suspected (400). */
  async assertHuman(check: VisitorCheck): Promise<void> {
    if (this.list.length === 0) return;
    // a plugin never sees the caller's credentials, whichever operation asks
    const { cookie: _cookie, authorization: _authorization, ...headers } = check.headers;
    for (const verifier of this.list) {
      const verdict = await verifier.verify({ ...check, headers });
      if (!verdict.ok) throw new AppError('svc_spam_suspected', undefined, { verifier: verifier.name });
    }
  }
}
