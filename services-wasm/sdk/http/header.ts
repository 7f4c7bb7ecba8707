/** One HTTP header (a non-extensible struct, as psibase packs it). */
@struct
export class HttpHeader {
  constructor(public name: string = "", public value: string = "") {}
}
