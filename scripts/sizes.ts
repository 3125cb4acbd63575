import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { listSources } from './layers.js';

/** The longest a product file may be before it should be split by concept. */
export const MAX_FILE_LINES = 500;
/** The longest a function may be before it should be split along its phases. */
export const MAX_FUNCTION_LINES = 120;

/**
 * Files exempt from both limits. Each is pure data (a table of column definitions read by the
 * extractors and the docs generator): its length is the number of columns, not tangled logic, and
 * splitting it would scatter one table over several files.
 */
export const SIZE_EXEMPT: readonly string[] = [
  // Every published table's columns and their descriptions, one entry per column.
  'src/tables/schema.ts',
];

export interface SizeOffence {
  file: string;
  /** The function's name (or `<file>` for the file itself). */
  name: string;
  line: number;
  lines: number;
  limit: number;
}

function lineOf(source: ts.SourceFile, pos: number): number {
  return source.getLineAndCharacterOfPosition(pos).line + 1;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (
    named.name &&
    (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name) || ts.isPrivateIdentifier(named.name))
  )
    return named.name.text;
  // An arrow function or function expression takes the name of what it is assigned to.
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return nameOf(parent);
  return '<anonymous>';
}

/** The functions of one file longer than `limit` lines, nested ones included. */
export function longFunctions(file: string, text: string, limit = MAX_FUNCTION_LINES): SizeOffence[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: SizeOffence[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)
    ) {
      const start = lineOf(source, node.getStart(source));
      const lines = lineOf(source, node.getEnd()) - start + 1;
      if (lines > limit) out.push({ file, name: nameOf(node), line: start, lines, limit });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every product file or function over its limit, exempt files left out. */
export function checkSizes(root: string, exempt: readonly string[] = SIZE_EXEMPT): SizeOffence[] {
  const out: SizeOffence[] = [];
  for (const file of listSources(root)) {
    if (exempt.includes(file)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) out.push({ file, name: '<file>', line: 1, lines, limit: MAX_FILE_LINES });
    out.push(...longFunctions(file, text));
  }
  return out;
}

export function formatOffence(o: SizeOffence): string {
  return o.name === '<file>'
    ? `${o.file}: ${o.lines} lines (limit ${o.limit})`
    : `${o.file}:${o.line}: function ${o.name} is ${o.lines} lines (limit ${o.limit})`;
}
