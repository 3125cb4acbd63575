import { socketPath, type TokenForm } from './fastcast-wire.js';

/**
 * Which form of the token (fastcast-wire.ts, `TokenForm`) to put in the socket URL. Servers read
 * the token from the query in more than one way: an upgrade refused with the token as given is
 * tried once more, at once, with the token wholly percent-encoded, and the form a server accepts
 * is the one sent to it from then on.
 */
export interface TokenForms {
  /** The form for the next upgrade. */
  next(): TokenForm;
  /** An upgrade in `form` was accepted; true the first time the encoded form is. */
  accepted(form: TokenForm): boolean;
  /** An upgrade with `token` in `form` was refused; true when the other form is to be tried at once. */
  refused(form: TokenForm, token: string): boolean;
}

export function createTokenForms(): TokenForms {
  let acceptedForm: TokenForm | null = null;
  let nextForm: TokenForm = 'given';
  return {
    next: () => acceptedForm ?? nextForm,
    accepted(form) {
      const news = acceptedForm === null && form === 'encoded';
      acceptedForm = form;
      return news;
    },
    refused(form, token) {
      // Encoding changes nothing of a token without such characters: no second try then.
      const retry =
        acceptedForm === null && form === 'given' && socketPath(token, 'encoded') !== socketPath(token);
      nextForm = retry ? 'encoded' : 'given';
      return retry;
    },
  };
}
