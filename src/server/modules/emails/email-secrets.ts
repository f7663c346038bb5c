// What the email log never shows (docs/emails.md, "The email log"): a staff invitation's one-time link sets the
// password of the member it names, so anyone reading the log (staff may) could take that member's place, an owner's
// included. The stored email keeps it, for a retry to send the same link.

const ONE_TIME_LINK = /(\/admin\/link#)[\w-]+/g;

export const HIDDEN_LINK_WORDS = '(hidden: only the person invited can use this link)';

/** The email's body as the log shows it: every one-time dashboard link's secret hidden. */
export function withoutOneTimeLinks(body: string): string {
  return body.replace(ONE_TIME_LINK, `$1${HIDDEN_LINK_WORDS}`);
}
