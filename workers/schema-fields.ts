import type { z } from 'zod';

/**
 * The field names a zod schema accepts at a path of the value it validates, so that a refused
 * unknown field can be answered with the closest known one. Wrappers (optional, default,
 * nullable, pipe) are looked through; an array step takes the element's schema.
 */
interface Node {
  _zod: { def: Def };
}
interface Def {
  type: string;
  innerType?: Node;
  in?: Node;
  shape?: Record<string, Node>;
  element?: Node;
}

export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: Node | undefined = schema as unknown as Node;
  let step = 0;
  while (node) {
    const def: Def = node._zod.def;
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (inner) {
      node = inner;
      continue;
    }
    if (step === path.length) break;
    const key = path[step++];
    node = def.type === 'object' ? def.shape?.[String(key)] : def.type === 'array' ? def.element : undefined;
  }
  return node?._zod.def.type === 'object' ? Object.keys(node._zod.def.shape ?? {}) : [];
}
