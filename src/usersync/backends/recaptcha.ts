import { request } from 'undici';

/** Bytes of the verification answer read at most: Google's is a few hundred. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Checks a reCAPTCHA answer with its verification endpoint (`secret` and `response` posted as a
 * form, as Google documents it): true only for a 200 answering `{"success": true}` within
 * `timeoutMs`; a failure, a timeout or anything else is false (the opt-out is refused, 401).
 */
export const createRecaptchaVerifier =
  (opts: { readonly secret: string; readonly verifyUrl: string; readonly timeoutMs: number }) =>
  async (response: string): Promise<boolean> => {
    try {
      const res = await request(opts.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: opts.secret, response }).toString(),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200 || text.length > MAX_ANSWER_BYTES) return false;
      return (JSON.parse(text) as { success?: unknown }).success === true;
    } catch {
      return false;
    }
  };
