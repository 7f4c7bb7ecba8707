#!/usr/bin/env node
// Fails when an import runs against the layer order of docs/layers.json (docs/design.md,
// "Layers"), type-only imports included: from a folder to one of a higher layer, between two
// folders of one layer, or to a file in no layer (tests/, bench/); and when a folder or file of
// runtime/ is in no layer. Prints each offending file with the import.
// `node scripts/check-layer-order.js [ROOT]` checks the tree at ROOT (the repository by default)
// against ROOT/docs/layers.json.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relativeImports, tsFiles } from './lib/source-imports.js';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const order = JSON.parse(readFileSync(join(root, 'docs', 'layers.json'), 'utf8'));

/** Each folder's layer number (0 the lowest). */
const layerOf = new Map(order.layers.flatMap((folders, layer) => folders.map((folder) => [folder, layer])));
const name = (path) => relative(root, path).split(sep).join('/');
const folderOf = (file) => [...layerOf.keys()].find((folder) => name(file).startsWith(`${folder}/`));

const problems = [];
for (const entry of readdirSync(join(root, order.folders))) {
  const path = join(root, order.folders, entry);
  if (statSync(path).isDirectory() ? !layerOf.has(name(path)) : entry.endsWith('.ts')) {
    problems.push(`${name(path)} is in no layer of docs/layers.json: add it to a layer (or move it into a folder that has one)`);
  }
}

const missing = [...layerOf.keys()].filter((folder) => !existsSync(join(root, folder)));
for (const folder of missing) problems.push(`${folder} is in docs/layers.json but not in the tree: take it out of the order`);
const files = [...layerOf.keys()].filter((folder) => !missing.includes(folder)).flatMap((folder) => tsFiles(join(root, folder)));
for (const file of files) {
  const from = folderOf(file);
  for (const { specifier, target } of relativeImports(file)) {
    const to = folderOf(target);
    if (to === from) continue;
    if (to === undefined) {
      problems.push(`${name(file)} imports '${specifier}': ${name(target)} is in no layer of docs/layers.json`);
    } else if (layerOf.get(to) > layerOf.get(from)) {
      problems.push(`${name(file)} imports '${specifier}': ${from} (layer ${layerOf.get(from)}) may not import ${to} (layer ${layerOf.get(to)}, higher)`);
    } else if (layerOf.get(to) === layerOf.get(from)) {
      problems.push(`${name(file)} imports '${specifier}': ${from} and ${to} are one layer (${layerOf.get(from)}) and may not import each other`);
    }
  }
}

if (problems.length === 0) {
  console.log(`layer order: kept by ${files.length} files in ${layerOf.size} folders`);
} else {
  for (const problem of problems) console.error(problem);
  process.exitCode = 1;
}
