import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { launchBrowser } from './browser.js';
import { focusedText, violations } from './dashboard-session.js';

// The dashboard's first screens (docs/dashboard.md) in Debian's Chromium against the server as `npm start` runs it:
// the owner follows the link it printed, sets a password, sees the home screen, signs out and in again.

let server: ServerProcess;
let browser: Browser;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-dashboard-'));

beforeAll(async () => {
  server = await startServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    60_000,
    'built',
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function newPage(width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

const PASSWORD = 'a long enough passphrase';

describe('the dashboard', () => {
  it('lets the owner set a password through the printed link, see the home screen, sign out and in', async () => {
    const printed = /Dashboard: the owner of "[^"]+" sets a password at (http:\/\/\S+)/.exec(server.output());
    expect(printed, server.output()).not.toBeNull();
    const link = printed?.[1] ?? '';
    expect(link).toMatch(/\/admin\/link#[\w-]{43}$/);

    const { page, problems } = await newPage(1400);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set up your dashboard' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Set up your dashboard');
    // The link's secret left the address bar at once.
    expect(page.url()).toMatch(/\/admin\/link$/);
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Email').fill('owner@demo.example');
    await page.getByLabel('Your name').fill('Olive Owner');
    await page.getByLabel('New password').fill('too short');
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Use at least 12 characters.' }).waitFor();
    expect(await page.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save and sign in' }).click();

    await page.getByRole('heading', { name: 'Home' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Home');
    await page.getByRole('heading', { name: 'This month', exact: true }).waitFor();
    expect(await page.locator('.admin-header').innerText()).toMatch(/Olive Owner \(owner\)/);
    expect(await violations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Sign in');
    expect(await violations(page)).toEqual([]);
    // Signed out for real: home sends back to sign-in.
    await page.goto(`${server.baseUrl}/admin`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.getByLabel('Email').fill('owner@demo.example');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is not right.' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says a used link does not work, and fits a 375 px phone', async () => {
    const { page, problems } = await newPage(375);
    const printed = /sets a password at (http:\/\/\S+)/.exec(server.output())?.[1] ?? '';
    await page.goto(printed);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/used or has expired/);
    expect(await violations(page)).toEqual([]);
    await page.goto(`${server.baseUrl}/admin/sign-in`);
    await page.getByLabel('Email').fill('owner@demo.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'This month', exact: true }).waitFor();
    const width = await page.evaluate(
      () => (globalThis as any).document.documentElement.scrollWidth as number,
    );
    expect(width).toBeLessThanOrEqual(375);
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
