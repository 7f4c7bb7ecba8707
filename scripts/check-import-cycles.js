#!/usr/bin/env node
// Fails when the TypeScript files under the given folders (default runtime/) import each other
// in a circle, type-only imports included: every file must have a place to start reading from.
// Prints each circle it finds as a chain of files. Imports are read as scripts/lib/source-imports.js
// says (the node's `.js` specifiers and AssemblyScript's extensionless ones alike).
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsAmong, tsFiles } from './lib/source-imports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folders = (process.argv.length > 2 ? process.argv.slice(2) : ['runtime']).map((f) => resolve(root, f));

const files = folders.flatMap(tsFiles);
const edges = new Map([...importsAmong(files)].map(([file, list]) => [file, list.map((i) => i.target)]));

// Tarjan's strongly connected components; any component of more than one file is a circle.
let index = 0;
const stack = [];
const info = new Map();
const circles = [];
function visit(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)) {
    if (!info.has(w)) {
      visit(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) {
      info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v).includes(v)) circles.push(component);
  }
}
for (const file of edges.keys()) if (!info.has(file)) visit(file);

const name = (f) => relative(root, f);
if (circles.length === 0) {
  console.log(`import cycles: none among ${edges.size} files`);
} else {
  for (const component of circles) console.error(`import cycle of ${component.length} files: ${component.map(name).sort().join(', ')}`);
  process.exitCode = 1;
}
