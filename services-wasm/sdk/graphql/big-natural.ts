// Natural numbers of any size, just enough to compare a double's exact value with a decimal
// (float.ts): built from a u64, multiplied by small numbers and powers of 2 and 10, compared.

export class BigNatural {
  /** Base 2^32 digits, least significant first. */
  private limbs: Array<u32> = [];

  constructor(value: u64) {
    while (value != 0) {
      this.limbs.push(<u32>value);
      value >>= 32;
    }
  }

  mulSmall(factor: u32): BigNatural {
    let carry: u64 = 0;
    for (let i = 0; i < this.limbs.length; i++) {
      const product = <u64>this.limbs[i] * factor + carry;
      this.limbs[i] = <u32>product;
      carry = product >> 32;
    }
    if (carry != 0) this.limbs.push(<u32>carry);
    return this;
  }

  mulPow2(exponent: i32): BigNatural {
    for (; exponent >= 31; exponent -= 31) this.mulSmall(1 << 31);
    return this.mulSmall(1 << exponent);
  }

  mulPow10(exponent: i32): BigNatural {
    for (; exponent >= 9; exponent -= 9) this.mulSmall(1000000000);
    for (; exponent > 0; exponent--) this.mulSmall(10);
    return this;
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `other`. */
  compare(other: BigNatural): i32 {
    const a = this.limbs;
    const b = other.limbs;
    if (a.length != b.length) return a.length < b.length ? -1 : 1;
    for (let i = a.length - 1; i >= 0; i--) if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
}
