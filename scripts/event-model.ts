import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The event model (src/model/events.ts) as the TypeScript compiler reads it, for the files that
 * must follow it without importing it: the client library's declarations, and the checks that the
 * JSON Schemas and docs/events.md name every field of every event's data.
 */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MODEL_FILE = join(ROOT, 'src', 'model', 'events.ts');

export interface Model {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  readonly source: ts.SourceFile;
}

let loaded: Model | undefined;

/** The model's program, checked with the repository's strictness (loaded once per process). */
export function loadModel(): Model {
  if (loaded) return loaded;
  const program = ts.createProgram([MODEL_FILE], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    types: [],
  });
  const source = program.getSourceFile(MODEL_FILE);
  if (!source) throw new Error(`cannot read ${MODEL_FILE}`);
  loaded = { program, checker: program.getTypeChecker(), source };
  return loaded;
}

/** One property of an event's `data`. */
export interface DataField {
  readonly name: string;
  /** Declared with `?`: absent from some events. */
  readonly optional: boolean;
}

/** Each event type's `data` fields, as `EventDataMap` declares them, in declaration order. */
export function eventDataFields(): Record<string, DataField[]> {
  const { checker, source } = loadModel();
  const map = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'EventDataMap',
  );
  if (!map) throw new Error(`${MODEL_FILE} declares no EventDataMap`);
  const fields: Record<string, DataField[]> = {};
  for (const entry of checker.getPropertiesOfType(checker.getTypeAtLocation(map.name))) {
    const data = checker.getTypeOfSymbol(entry);
    fields[entry.name] = checker.getPropertiesOfType(data).map((p) => ({
      name: p.name,
      optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
    }));
  }
  return fields;
}
