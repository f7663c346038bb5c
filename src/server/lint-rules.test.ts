import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The import rules and the size limit of eslint.config.js bite: each is shown a file that breaks it.
const root = fileURLToPath(new URL('../..', import.meta.url));

// Only the rules under test, and without type information: files that are not on disk need no TypeScript program.
// no-cycle runs only where it is tested: it would read every file an import leads to (app.ts leads to all of them).
function linter(rules: readonly string[]) {
  return new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, 'eslint.config.js'),
    overrideConfig: { languageOptions: { parserOptions: { project: null } } },
    ruleFilter: ({ ruleId }) => rules.includes(ruleId),
  });
}
const eslint = linter(['import-x/no-restricted-paths', 'no-restricted-imports', 'max-lines']);

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map(({ ruleId, message }) => ({ ruleId, message }));
}

// Loading the config (typescript-eslint, the plugins) takes seconds on a busy machine.
const slow = { timeout: 60_000 };

describe('layer rules', slow, () => {
  it('refuses a feature module in platform', async () => {
    expect(
      await problems(
        'src/server/platform/payments/new-gateway.ts',
        "import { createOrder } from '../../modules/orders/order-service.js';\nexport const x = createOrder;\n",
      ),
    ).toEqual([
      {
        ruleId: 'import-x/no-restricted-paths',
        message: expect.stringContaining(
          'platform must not depend on a feature module: move the shared piece into platform or pass it in from app.ts',
        ),
      },
    ]);
  });

  it('refuses the composition root in platform and in a module', async () => {
    for (const [file, specifier, says] of [
      ['src/server/platform/clock-tool.ts', '../app.js', 'platform must not import the composition root'],
      [
        'src/server/platform/http/new-hook.ts',
        '../../server.js',
        'platform must not import the composition root',
      ],
      [
        'src/server/modules/carts/new-cart-thing.ts',
        '../../app.js',
        'a feature module must not import the composition root',
      ],
    ] as const) {
      expect(await problems(file, `import { x } from '${specifier}';\nexport const y = x;\n`)).toEqual([
        { ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining(says) },
      ]);
    }
  });

  it('lets a module use platform, the domain, the contract and other modules', async () => {
    const code = [
      "import { AppError } from '../../platform/errors.js';",
      "import { minor } from '../../../domain/money.js';",
      "import { describeIssue } from '../../../contract/errors.js';",
      "import { shopperOf } from '../organizations/request-context.js';",
      'export const all = [AppError, minor, describeIssue, shopperOf];',
      '',
    ].join('\n');
    expect(await problems('src/server/modules/carts/new-cart-thing.ts', code)).toEqual([]);
  });

  it('keeps the server out of the page and of the domain', async () => {
    expect(
      await problems(
        'src/client/new-widget.ts',
        "import { x } from '../server/platform/config.js';\nexport { x };\n",
      ),
    ).toEqual([
      {
        ruleId: 'no-restricted-imports',
        message: expect.stringContaining('The page never imports server code'),
      },
    ]);
    expect(
      await problems(
        'src/domain/new-rule.ts',
        "import { x } from '../server/platform/clock.js';\nexport { x };\n",
      ),
    ).toEqual([{ ruleId: 'no-restricted-imports', message: expect.stringContaining('src/domain is pure') }]);
  });
});

describe("the pages' Lingui", slow, () => {
  const setup =
    "import { setupI18n } from '@lingui/core';\nexport const i18n = setupI18n({ locale: 'en' });\n";
  const syntax = linter(['no-restricted-syntax']);
  const found = async (file: string) =>
    ((await syntax.lintText(setup, { filePath: path.join(root, file) }))[0]?.messages ?? []).map(
      ({ ruleId, message }) => ({ ruleId, message }),
    );

  it('refuses a plain setupI18n outside the server, whose compiled plurals would show no count', async () => {
    for (const file of [
      'src/client/new-widget.ts',
      'src/domain/new-rule.test.ts',
      'src/card-frame/new-part.ts',
    ]) {
      expect(await found(file)).toEqual([
        { ruleId: 'no-restricted-syntax', message: expect.stringContaining('through setupPageI18n') },
      ]);
    }
    expect(await found('src/server/i18n/new-translator.ts')).toEqual([]);
  });
});

describe('import cycles', slow, () => {
  // no-cycle follows the imports of files on disk, so the two files of a cycle are written out for the test.
  const dir = mkdtempSync(path.join(root, 'src/server/.lint-rules-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses two files that import each other, and not an import of a type back', async () => {
    writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a.js';\nexport const b = () => a;\n");
    writeFileSync(
      path.join(dir, 'c.ts'),
      "import type { d } from './d.js';\nexport const c = (x: typeof d) => x;\n",
    );
    writeFileSync(path.join(dir, 'd.ts'), "import { c } from './c.js';\nexport const d = c;\n");
    const results = await linter(['import-x/no-cycle']).lintFiles([dir]);
    const found = Object.fromEntries(
      results.map((result) => [path.basename(result.filePath), result.messages.map((m) => m.ruleId)]),
    );
    expect(found).toEqual({
      'a.ts': ['import-x/no-cycle'],
      'b.ts': ['import-x/no-cycle'],
      'c.ts': [],
      'd.ts': [],
    });
  });
});

describe('file size', slow, () => {
  const lines = (count: number) =>
    Array.from({ length: count }, (_, i) => `export const v${i} = ${i};`).join('\n');

  it('refuses a server file over 500 lines, tests included', async () => {
    expect(await problems('src/server/platform/long.ts', lines(500))).toEqual([]);
    for (const file of ['src/server/platform/long.ts', 'src/server/modules/orders/long.test.ts']) {
      expect(await problems(file, lines(501))).toEqual([
        { ruleId: 'max-lines', message: 'File has too many lines (501). Maximum allowed is 500.' },
      ]);
    }
  });
});
