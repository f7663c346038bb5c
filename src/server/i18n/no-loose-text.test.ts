import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRootAbove } from '../platform/project-root.js';

// No shopper-facing words outside the catalogues (docs/languages.md, "Messages"): text between JSX tags, and the
// attributes a person reads or hears, are messages; a word written into a component would stay English in every
// language.

const root = projectRootAbove(import.meta.dirname);
const SHOPPER_PAGES = [
  'src/client/checkout',
  'src/client/manage',
  'src/client/ui',
  'src/client/errors',
  'src/card-frame',
];
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
]);
/** Names no language translates. */
const NAMES = new Set(['PayPal', 'Stripe', 'Visa', 'Mastercard', 'American Express']);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const hasWords = (text: string) => /\p{L}/u.test(text) && !NAMES.has(text.trim());

/** Each place in a component that writes words itself: "file:line: text". */
export function looseText(file: string, source = readFileSync(file, 'utf8')): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = tree.getLineAndCharacterOfPosition(node.getStart(tree));
    found.push(`${path.relative(root, file)}:${line + 1}: ${text.trim()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
    if (
      ts.isJsxExpression(node) &&
      node.parent &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      const inner = node.expression;
      if (
        inner &&
        (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) &&
        hasWords(inner.text)
      )
        report(node, inner.text);
    }
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(tree))) {
      const value = node.initializer;
      const literal =
        value && ts.isJsxExpression(value) && value.expression && ts.isStringLiteral(value.expression)
          ? value.expression
          : value && ts.isStringLiteral(value)
            ? value
            : null;
      if (literal && hasWords(literal.text)) report(node, `${node.name.getText(tree)}="${literal.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe('shopper pages', () => {
  it('find words written into a component', () => {
    const sample = `export const A = () => <p title="Close">Hello {'there'} <b>{name}</b> {'·'} PayPal</p>;`;
    expect(looseText(path.join(root, 'sample.tsx'), sample)).toEqual([
      'sample.tsx:1: title="Close"',
      'sample.tsx:1: Hello',
      'sample.tsx:1: there',
    ]);
  });

  it.each(SHOPPER_PAGES)('write no words outside the catalogues in %s', (dir) => {
    expect(sourceFiles(dir).flatMap((file) => looseText(file))).toEqual([]);
  });
});
