// Content types of site files by extension: what a bundle's files and the node's own web apps
// are served as.

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm', '.txt': 'text/plain',
};

/** The content type of a file named `path`; octet-stream for extensions not in the table. */
export function contentTypeOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash ? CONTENT_TYPES[path.slice(dot).toLowerCase()] ?? 'application/octet-stream' : 'application/octet-stream';
}
