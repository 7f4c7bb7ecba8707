// Structural comparison of one type in two schemas (docs/formats.md §2): names are followed to
// their definitions (a schema's own, else the built-ins), so `bytes` equals its expansion, and
// what must agree is what fixes the wire form — kinds, member names in order, int widths, custom ids.
import { BUILTIN_TYPES, type AnyType, type Schema } from '../../host-api/index.js';
import { kindOf } from '../../host-api/fracpack/schema.js';

type Node = Exclude<AnyType, string>;

/**
 * A nested fracpack value shown as hex packs and maps to JSON exactly as `bytes` do (u32 length,
 * the bytes; a hex string): a service may keep as bytes what the host reads as the nested type
 * (SignedTransaction.transaction). Such a node is compared as `bytes`.
 */
function asBytes(node: Node): Node {
  const [kind, body] = kindOf(node);
  if (kind !== 'Custom') return node;
  const { type, id } = body as { type: AnyType; id: string };
  return id === 'hex' && typeof type === 'object' && kindOf(type)[0] === 'FracPack' ? (BUILTIN_TYPES.bytes as Node) : node;
}

function definition(schema: Schema, name: string): AnyType {
  if (Object.hasOwn(schema, name)) return schema[name]!;
  if (Object.hasOwn(BUILTIN_TYPES, name)) return BUILTIN_TYPES[name]!;
  throw new Error(`type '${name}' is not defined`);
}

function membersDifference(path: string, a: Record<string, AnyType>, b: Record<string, AnyType>, next: (p: string, x: AnyType, y: AnyType) => string | null): string | null {
  const keysA = Object.keys(a).join(', ');
  const keysB = Object.keys(b).join(', ');
  if (keysA !== keysB) return `${path}: members (${keysA}) vs (${keysB})`;
  for (const key of Object.keys(a)) {
    const found = next(`${path}.${key}`, a[key]!, b[key]!);
    if (found) return found;
  }
  return null;
}

/** The first place where type `name` differs between schemas `a` and `b`, or null when they agree. */
export function schemaDifference(a: Schema, b: Schema, name: string): string | null {
  const compared = new Set<string>();

  function differ(path: string, x: AnyType, y: AnyType): string | null {
    if (typeof x === 'string' && typeof y === 'string') {
      const pair = `${x}|${y}`;
      if (compared.has(pair)) return null; // a recursive type, already being compared
      compared.add(pair);
    }
    if (typeof x === 'string') return differ(path, definition(a, x), y);
    if (typeof y === 'string') return differ(path, x, definition(b, y));
    return differNodes(path, asBytes(x), asBytes(y));
  }

  function differNodes(path: string, x: Node, y: Node): string | null {
    const [kindX, bodyX] = kindOf(x);
    const [kindY, bodyY] = kindOf(y);
    if (kindX !== kindY) return `${path}: ${kindX} vs ${kindY}`;
    switch (kindX) {
      case 'Struct': case 'Object': case 'Variant':
        return membersDifference(path, bodyX as Record<string, AnyType>, bodyY as Record<string, AnyType>, differ);
      case 'Tuple': {
        const [tx, ty] = [bodyX as AnyType[], bodyY as AnyType[]];
        if (tx.length !== ty.length) return `${path}: ${tx.length} vs ${ty.length} elements`;
        for (let i = 0; i < tx.length; i++) {
          const found = differ(`${path}[${i}]`, tx[i]!, ty[i]!);
          if (found) return found;
        }
        return null;
      }
      case 'List': case 'Option': case 'FracPack':
        return differ(`${path}<>`, bodyX as AnyType, bodyY as AnyType);
      case 'Array': {
        const [ax, ay] = [bodyX as { type: AnyType; len: number | string }, bodyY as { type: AnyType; len: number | string }];
        if (Number(ax.len) !== Number(ay.len)) return `${path}: Array of ${ax.len} vs ${ay.len}`;
        return differ(`${path}[]`, ax.type, ay.type);
      }
      case 'Custom': {
        const [cx, cy] = [bodyX as { type: AnyType; id: string }, bodyY as { type: AnyType; id: string }];
        if (cx.id !== cy.id) return `${path}: custom ${cx.id} vs ${cy.id}`;
        return differ(path, cx.type, cy.type);
      }
      default: // Int, Float: plain numbers
        return JSON.stringify(bodyX) === JSON.stringify(bodyY) ? null : `${path}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`;
    }
  }

  return differ(name, name, name);
}
