// Records: classes whose fracpack encoding is generated from their fields (in declaration order).
//   @fracpack  Object (extensible struct): trailing absent options dropped, unknown fields skipped
//   @struct    Struct (non-extensible): fixed when every member is
//   @variant   Variant: each field is an alternative; a `tag: u8` field says which one is held
// The generated members implement the protocol of sdk/fracpack/record.ts.

import { CommonFlags } from 'assemblyscript';
import { appendMembers, instanceFields, selfTypeText, sourceError, takeDecorator, typeText } from './ast.mjs';

export const RECORD_DECORATORS = { fracpack: 'OBJECT', struct: 'STRUCT', variant: 'VARIANT' };

/** Takes the record decorator off a class; returns its kind or null when the class has none. */
export function takeRecordKind(classDecl) {
  let kind = null;
  for (const [decorator, recordKind] of Object.entries(RECORD_DECORATORS)) {
    if (!takeDecorator(classDecl, decorator)) continue;
    if (kind) throw sourceError(classDecl, `${classDecl.name.text}: a class takes only one of @fracpack, @struct, @variant`);
    kind = recordKind;
  }
  return kind;
}

/** What the transform knows about one record class. */
export class Record {
  constructor(classDecl, source, kind) {
    if (classDecl.extendsType) {
      throw sourceError(classDecl, `${classDecl.name.text}: a record class cannot extend another class`);
    }
    this.classDecl = classDecl;
    this.source = source;
    this.kind = kind;
    this.name = classDecl.name.text;
    this.members = instanceFields(classDecl).map((field) => {
      if (field.flags & CommonFlags.Readonly) throw sourceError(field, `${this.name}.${field.name.text}: a record field cannot be readonly`);
      return { name: field.name.text, type: field.type };
    });
    if (kind === 'VARIANT' && this.members.some((m) => m.name === 'tag')) {
      throw sourceError(classDecl, `${this.name}: a @variant class gets its own 'tag' field; remove yours`);
    }
  }

  /** Adds the protocol members (and a Variant's tag) to the class. */
  generate(parser) {
    appendMembers(parser, this.source, this.classDecl, this.memberText());
  }

  memberText() {
    const self = selfTypeText(this.classDecl);
    const types = this.members.map((m) => typeText(m.type));
    const isVariant = this.kind === 'VARIANT';
    const sum = ['0', ...types.map((t) => `__fp.fixedSize<${t}>()`)].join(' + ');
    const anyVariable = ['false', ...types.map((t) => `__fp.isVariable<${t}>()`)].join(' || ');
    // A Variant touches only the field of the alternative it holds.
    const writes = isVariant
      ? [...this.members.map((m, i) => `if (this.tag == ${i}) o.alternative<${types[i]}>(${i}, this.${m.name}); else `), 'o.noAlternative(this.tag);']
      : this.members.map((m, i) => `o.member<${types[i]}>(this.${m.name});`);
    const reads = isVariant
      ? ['v.tag = o.tag;', ...this.members.map((m, i) => `if (o.tag == ${i}) v.${m.name} = o.alternative<${types[i]}>();`)]
      : this.members.map((m, i) => `v.${m.name} = o.member<${types[i]}>();`);
    return [
      isVariant ? '/** The alternative held: the index of a field. */\ntag: u8 = 0;' : '',
      `__fpRecord(): u32 { return __fp.${this.kind}; }`,
      `__fpMemberCount(): i32 { return ${this.members.length}; }`,
      `__fpMembersSize(): u32 { return ${sum}; }`,
      `__fpMembersVariable(): bool { return ${anyVariable}; }`,
      `__fpWrite(o: __fp.MemberWriter): void {`,
      ...writes,
      `}`,
      `__fpRead(o: __fp.MemberReader): ${self} {`,
      `const v = changetype<${self}>(__new(offsetof<${self}>(), idof<${self}>()));`,
      ...reads,
      `return v;`,
      `}`,
      // The encoders' protocol (fracpack/codec.ts, key.ts), answered by fracpack/record.ts.
      `__fpFixedSize(): u32 { return __fp.recordFixedSize<${self}>(); }`,
      `__fpIsVariable(): bool { return __fp.recordIsVariable<${self}>(); }`,
      `__fpWriteSlot(w: __fp.Writer): void { __fp.writeRecordSlot<${self}>(w, this); }`,
      `__fpWriteHeap(w: __fp.Writer, slotPos: u32): void { __fp.writeRecordHeap<${self}>(w, this, slotPos); }`,
      `__fpWriteFull(w: __fp.Writer): void { __fp.writeRecordFull<${self}>(w, this); }`,
      `__fpWriteKey(w: __fp.Writer): void { __fp.writeRecordKey<${self}>(w, this); }`,
      `__fpReadSlot(r: __fp.Reader, at: u32): ${self} { return __fp.readRecordSlot<${self}>(r, at); }`,
      `__fpReadFull(r: __fp.Reader): ${self} { return __fp.readRecordFull<${self}>(r); }`,
    ].join('\n');
  }
}
