import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { contentTypeOf } from '../../host-api/http/content-types.js';
import { reply } from './replies.js';
import type { WireRequest, WireResponse } from './wire/index.js';

/**
 * A directory served as a web site: GET and HEAD only, `index.html` for a directory, nothing
 * outside the directory. `serve` returns false when it has no file for the request.
 */
export class StaticFiles {
  constructor(private readonly dir: string) {}

  async serve(req: WireRequest, res: WireResponse, path: string): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return false;
    }
    const relative = normalize(decoded).replace(/^[/\\]+/, '');
    if (relative.split(sep).includes('..') || decoded.includes('\0')) return false;
    try {
      const { file, content } = await readPage(join(this.dir, relative));
      // For a HEAD the connection sends the head only, Content-Length the file's.
      reply(res, 200, contentTypeOf(file), content);
      return true;
    } catch (err) {
      if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return false;
      throw err;
    }
  }
}

/** A file and its bytes; a directory stands for its index.html (read first: no stat per request). */
async function readPage(file: string): Promise<{ file: string; content: Buffer }> {
  try {
    return { file, content: await readFile(file) };
  } catch (err) {
    if (errorCode(err) !== 'EISDIR') throw err;
    const index = join(file, 'index.html');
    return { file: index, content: await readFile(index) };
  }
}

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code;
