/** Signs a 32-byte digest with one held key; returns the 64-byte r||s (low S). */
export type Signer = (digest: Uint8Array) => Uint8Array;
