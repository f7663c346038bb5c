// Signed-in dashboard pages for browser tests (docs/dashboard.md): the owner's printed link is used through the API
// once, and each page carries the session's cookie, as a browser that signed in would.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { http, type ServerProcess } from '../helpers/server-process.js';
import { axeIn } from './checkout-page.js';

export const OWNER = {
  email: 'owner@demo.example',
  name: 'Olive Owner',
  password: 'a long enough passphrase',
};

/** The owner's link `npm start` printed, used to set the owner's password; answers the session's cookie. */
export async function ownerCookie(server: ServerProcess): Promise<{ name: string; value: string }> {
  const link = /sets a password at (http:\/\/\S+)/.exec(server.output())?.[1];
  if (!link) throw new Error(`the server printed no owner's link:\n${server.output()}`);
  const token = new URL(link).hash.slice(1);
  const answer = await http(server.baseUrl, 'POST', '/admin/api/links/complete', {
    body: { token, ...OWNER },
  });
  if (answer.status !== 200)
    throw new Error(`links/complete: ${answer.status} ${JSON.stringify(answer.body)}`);
  return cookieOf(answer.headers);
}

/** Signs a member in through the API; answers the session's cookie. */
export async function signInCookie(
  server: ServerProcess,
  email: string,
  password: string,
): Promise<{ name: string; value: string }> {
  const answer = await http(server.baseUrl, 'POST', '/admin/api/session', { body: { email, password } });
  if (answer.status !== 200) throw new Error(`sign-in: ${answer.status} ${JSON.stringify(answer.body)}`);
  return cookieOf(answer.headers);
}

function cookieOf(headers: Headers): { name: string; value: string } {
  const [pair = ''] = (headers.get('set-cookie') ?? '').split(';');
  const at = pair.indexOf('=');
  if (at < 1) throw new Error('no session cookie was set');
  return { name: pair.slice(0, at), value: pair.slice(at + 1) };
}

export interface DashboardPage {
  page: Page;
  context: BrowserContext;
  /** CSP refusals and page errors seen so far: a test ends expecting none */
  problems: string[];
}

/** A page at `width` px signed in with `cookie`, its CSP refusals and errors collected. */
export async function signedInPage(
  browser: Browser,
  server: ServerProcess,
  cookie: { name: string; value: string },
  width: number,
): Promise<DashboardPage> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ ...cookie, url: server.baseUrl }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, context, problems };
}

/** axe's violations on the page, one line each (id and where). */
export async function violations(page: Page): Promise<string[]> {
  return (await axeIn(page.mainFrame(), false)).map(
    (violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

/** The text of the element that has the focus (a screen's heading after navigation). */
export async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '') as string);
}

/** Whether the page fits its viewport's width (no sideways scrolling at 375 px). */
export async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
}
