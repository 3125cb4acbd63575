// Placeholder: the tables module (issue 3) replaces this file. Signature is the contract.
export type Flavour = 'arrow' | 'rows';

export interface ParseOptions {
  flavour?: Flavour;
  /** Spec alias: true selects the rows flavour. */
  return_as_pandas?: boolean;
  /** For summary: pick one table by name. */
  table?: string;
}

export function parseOperation(_operation: string, _raw: unknown, _options: ParseOptions = {}): unknown {
  throw new Error('tables not built yet');
}
