import 'server-only';
// What the login page may say after a failed form sign-in. The redirect carries only a code;
// anything else in `?error=` is ignored, so a link cannot make the page show an attacker's text.

export const LOGIN_ERRORS = {
  invalid: 'enter your user name and password',
  'wrong-password': 'wrong user name or password',
  throttled: 'too many failed sign-ins from here; wait a little and try again',
  'too-large': 'request too large',
  'cross-site': 'sign-in from another site refused',
  'not-accounts': 'this console does not use built-in accounts',
  unavailable: 'sign-in is unavailable right now; try again shortly',
} as const;

export type LoginErrorCode = keyof typeof LOGIN_ERRORS;

export function loginErrorMessage(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(LOGIN_ERRORS, code) ? LOGIN_ERRORS[code as LoginErrorCode] : undefined;
}
