// /proc texts as this machine's kernel (6.x, x86-64) writes them, cut to a few mappings and threads.
// The smaps mappings and their expected category are listed in SMAPS_RSS_KB.

export const DATA_FILE = '/tmp/tsibase-cap-j5AHy9/data.mdb';

/** Rss in kB of the fixture's mappings, by the category each belongs to. */
export const SMAPS_RSS_KB = {
  database: [1240, 32],
  code: [20480, 440, 8],
  data: [7612, 124, 24, 4, 4],
  other: [40, 5136, 4, 240, 8, 132, 64],
};

const FULL_FIELDS = (sizeKb: number, rssKb: number, flags: string): string => `Size:             ${String(sizeKb).padStart(6)} kB
KernelPageSize:        4 kB
MMUPageSize:           4 kB
Rss:              ${String(rssKb).padStart(6)} kB
Pss:              ${String(rssKb).padStart(6)} kB
Pss_Dirty:             0 kB
Shared_Clean:          0 kB
Shared_Dirty:          0 kB
Private_Clean:    ${String(rssKb).padStart(6)} kB
Private_Dirty:         0 kB
Referenced:       ${String(rssKb).padStart(6)} kB
Anonymous:             0 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:         0 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
THPeligible:           0
VmFlags: ${flags}
`;

// Older kernels write fewer fields; ProtectionKey appears with memory protection keys.
const SHORT_FIELDS = (sizeKb: number, rssKb: number, flags: string): string => `Size:             ${String(sizeKb).padStart(6)} kB
Rss:              ${String(rssKb).padStart(6)} kB
Pss:              ${String(rssKb).padStart(6)} kB
Swap:                  0 kB
ProtectionKey:         0
VmFlags: ${flags}
`;

export const SMAPS = [
  '00400000-00b6f000 r--p 00000000 fe:00 260689                             /usr/bin/node\n' + FULL_FIELDS(7612, 7612, 'rd mr mw me '),
  '00b72000-025fe000 r-xp 00772000 fe:00 260689                             /usr/bin/node\n' + FULL_FIELDS(27184, 20480, 'rd ex mr mw me '),
  '0563e000-0565d000 rw-p 0523d000 fe:00 260689                             /usr/bin/node\n' + FULL_FIELDS(124, 124, 'rd wr mr mw me ac '),
  '0565d000-05689000 rw-p 00000000 00:00 0 \n' + FULL_FIELDS(176, 40, 'rd wr mr mw me ac '),
  '3b5b8000-3bad6000 rw-p 00000000 00:00 0                                  [heap]\n' + FULL_FIELDS(5240, 5136, 'rd wr mr mw me ac '),
  `7f6df89ba000-7f6df8afa000 r--s 00000000 fe:00 2171471                    ${DATA_FILE}\n` + FULL_FIELDS(1280, 1240, 'rd sh mr mw me ms '),
  `7f6df8afa000-7f6df8b7a000 r--s 00000000 fe:00 2171471                    ${DATA_FILE}\n` + SHORT_FIELDS(512, 32, 'rd sh mr mw me ms '),
  '7f6df8efd000-7f6df8f03000 r--p 00000000 fe:00 5310172                    /work/main/node_modules/@lmdb/lmdb-linux-x64/node.abi115.glibc.node\n' + FULL_FIELDS(24, 24, 'rd mr mw me '),
  '7f6df8f03000-7f6df8f9e000 r-xp 00006000 fe:00 5310172                    /work/main/node_modules/@lmdb/lmdb-linux-x64/node.abi115.glibc.node\n' + FULL_FIELDS(620, 440, 'rd ex mr mw me '),
  '7f6df8fbb000-7f6df8fbc000 rw-p 000be000 fe:00 5310172                    /work/main/node_modules/@lmdb/lmdb-linux-x64/node.abi115.glibc.node\n' + FULL_FIELDS(4, 4, 'rd wr mr mw me ac '),
  '7f6e2006e000-7f6e20071000 rw-s 00000000 fe:00 2171472                    /tmp/tsibase-cap-j5AHy9/lock.mdb\n' + FULL_FIELDS(12, 4, 'rd wr sh mr mw me ms '),
  '7fc300003000-7fc30003f000 rwxp 00000000 00:00 0 \n' + FULL_FIELDS(240, 240, 'rd wr ex mr mw me ac '),
  '7fc31fe40000-7fc31fe42000 r-xp 00000000 fe:00 5311111                    /tmp/a dir/old lib.so (deleted)\n' + SHORT_FIELDS(8, 8, 'rd ex mr mw me '),
  '7fc31fe42000-7fc31fe43000 r--p 00002000 fe:00 5311111                    /tmp/a dir/old lib.so (deleted)\n' + SHORT_FIELDS(4, 4, 'rd mr mw me '),
  '7ffd1b5f1000-7ffd1b5f3000 r-xp 00000000 00:00 0                          [vdso]\n' + FULL_FIELDS(8, 8, 'rd ex mr mw me de sd '),
  '7ffd1b5b0000-7ffd1b5d1000 rw-p 00000000 00:00 0                          [stack]\n' + FULL_FIELDS(132, 132, 'rd wr mr mw me gd ac '),
  '7fc320000000-7fc320010000 rw-s 00000000 00:01 4242                       /memfd:shared (deleted)\n' + SHORT_FIELDS(64, 64, 'rd wr sh mr mw me ms '),
].join('');

/** The main thread's stat: minflt 2395, majflt 0, utime 9, stime 1 ticks. */
export const STAT_MAIN = '26336 (node) R 26334 26334 24909 0 -1 4194304 2395 0 0 0 9 1 0 0 20 0 7 0 1160240 745996288 10512 18446744073709551615 11988992 39846385 140732638216864 0 0 0 0 16781312 17922 0 0 0 17 0 0 0 0 0 0 90418888 90555584 1059860480 140732638222417 140732638223088 140732638223088 140732638224362 0\n';

/** A thread named `a) (b c` (comm may hold spaces and parentheses): minflt 4, majflt 3, utime 250, stime 17. */
export const STAT_ODD_NAME = '26337 (a) (b c) S 26334 26334 24909 0 -1 4194368 4 0 3 0 250 17 0 0 20 0 7 0 1160252 745996288 10512 18446744073709551615 11988992 39846385 140732638216864 0 0 0 512 16781312 17922 1 0 0 -1 0 0 0 0 0 0 90418888 90555584 1059860480 140732638222417 140732638223088 140732638223088 140732638224362 0\n';

export const IO = `rchar: 318103
wchar: 2949
syscr: 109
syscw: 6
read_bytes: 8192
write_bytes: 4096
cancelled_write_bytes: 0
`;
