import { relative } from 'node:path';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';
import { loadModel, MODEL_FILE, ROOT } from './event-model.js';

/**
 * The client library's event declarations (src/live-client/events.d.ts), printed from the model's
 * exported types with their JSDoc. The library ships without the daemon, so the types it would
 * import (`League`) are inlined as what they resolve to, and what only the daemon uses is left out.
 */
export const EVENTS_DTS = `${ROOT}/src/live-client/events.d.ts`;

/** Exported by the model but not part of what a client receives: a reader of the daemon's store. */
const DAEMON_ONLY = new Set(['SnapshotSource']);

const HEADER = `// Generated from ${relative(ROOT, MODEL_FILE)} by \`npm run gen:events-dts\`: do not edit, change the
// model and run it again. The types the model imports are inlined, so that the client library
// needs nothing else from courtside. test/live-client/typecheck/drift.ts checks them against the model.
`;

type Exported = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

function isExportedType(s: ts.Statement): s is Exported {
  return (
    (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) &&
    !!s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
    !DAEMON_ONLY.has(s.name.text)
  );
}

/** Each type the model imports, as an exported alias of the type it resolves to, with its JSDoc. */
function inlinedImports(model: ReturnType<typeof loadModel>): ts.TypeAliasDeclaration[] {
  const { checker, source } = model;
  const aliases: ts.TypeAliasDeclaration[] = [];
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !s.importClause?.namedBindings) continue;
    if (!ts.isNamedImports(s.importClause.namedBindings)) continue;
    for (const spec of s.importClause.namedBindings.elements) {
      const symbol = checker.getAliasedSymbol(checker.getSymbolAtLocation(spec.name)!);
      const node = checker.typeToTypeNode(
        checker.getDeclaredTypeOfSymbol(symbol),
        undefined,
        ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.NoTruncation,
      );
      if (!node) throw new Error(`cannot inline ${spec.name.text} into ${EVENTS_DTS}`);
      const exportKeyword = ts.factory.createModifier(ts.SyntaxKind.ExportKeyword);
      const alias = ts.factory.createTypeAliasDeclaration([exportKeyword], spec.name.text, undefined, node);
      const doc = `* The model's \`${spec.name.text}\` (${relative(ROOT, symbol.declarations![0]!.getSourceFile().fileName)}). `;
      aliases.push(ts.addSyntheticLeadingComment(alias, ts.SyntaxKind.MultiLineCommentTrivia, doc, true));
    }
  }
  return aliases;
}

/** Keeps on one line the object and mapped types written on one line in the model (the printer expands them). */
function keepSingleLine(node: ts.Node, source: ts.SourceFile): void {
  if ((ts.isTypeLiteralNode(node) || ts.isMappedTypeNode(node)) && !node.getText(source).includes('\n')) {
    ts.setEmitFlags(node, ts.EmitFlags.SingleLine);
  }
  node.forEachChild((child) => keepSingleLine(child, source));
}

/** The declarations, formatted as `npm run lint` expects. */
export async function renderEventsDts(): Promise<string> {
  const model = loadModel();
  const statements = [...inlinedImports(model), ...model.source.statements.filter(isExportedType)];
  for (const s of statements) if (s.pos >= 0) keepSingleLine(s, model.source);
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  // One statement at a time, so that a blank line separates them as in the model.
  const body = statements
    .map((s) => printer.printNode(ts.EmitHint.Unspecified, s, model.source))
    .join('\n\n');
  const config = (await resolveConfig(EVENTS_DTS)) ?? {};
  return format(HEADER + '\n' + body, { ...config, filepath: EVENTS_DTS });
}
