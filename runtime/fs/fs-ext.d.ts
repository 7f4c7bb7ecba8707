// The part of fs-ext 2.1.1 (a native addon without type declarations) the directory lock uses.
declare module 'fs-ext' {
  /** flock(2) on an open file; throws an errno error (EAGAIN/EWOULDBLOCK for 'exnb' on a held lock). */
  export function flockSync(fd: number, flags: 'sh' | 'ex' | 'shnb' | 'exnb' | 'un'): void;
}
