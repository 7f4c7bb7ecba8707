#!/usr/bin/env node
// Fails when a file of runtime/ outside runtime/chain reaches into the chain's store, engine,
// executor or transaction processor (docs/design.md, "The chain"): `chain.store`, `this.chain.executor`,
// `chain['engine']`, `const { store } = chain`, and the like; and when the Chain facade
// (runtime/chain/chain.ts) declares one of them without `private`. What a consumer needs of them
// the chain hands out through runtime/chain/interface.ts. Prints each offending line.
// `node scripts/check-chain-facade.js [ROOT]` checks the tree at ROOT (the repository by default).
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsFiles } from './lib/source-imports.js';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const INSIDE = ['store', 'engine', 'executor', 'processor'];
const names = INSIDE.join('|');
/** A chain as the code names it: `chain`, `this.chain`, `node.chain`, `ports.chain`, optional chaining too. */
const CHAIN = String.raw`\bchain\??`;
const READS = [
  new RegExp(String.raw`${CHAIN}\.\s*(${names})\b`),
  new RegExp(String.raw`${CHAIN}\[\s*['"\`](${names})['"\`]\s*\]`),
  new RegExp(String.raw`\{[^}]*\b(${names})\b[^}]*\}\s*=\s*(?:this\.)?(?:\w+\.)?chain\b`),
];
/** A member of the facade named like one of them, without `private` before it. */
const PUBLIC_MEMBER = new RegExp(String.raw`^\s*(?!private\b)(?:(?:public|protected|readonly|get)\s+)*(${names})\b\s*[:(;=]`);

const name = (path) => relative(root, path).split(sep).join('/');
const problems = [];
const runtime = join(root, 'runtime');
for (const file of tsFiles(runtime).filter((f) => !name(f).startsWith('runtime/chain/'))) {
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    const found = READS.map((r) => line.match(r)).find((m) => m);
    if (found) problems.push(`${name(file)}:${i + 1} reads the chain's ${found[1]}: take what it needs through runtime/chain/interface.ts`);
  });
}
const facade = join(runtime, 'chain', 'chain.ts');
readFileSync(facade, 'utf8').split('\n').forEach((line, i) => {
  const found = line.match(PUBLIC_MEMBER);
  if (found) problems.push(`${name(facade)}:${i + 1} declares ${found[1]} without private: the chain's ${found[1]} stays inside runtime/chain`);
});
for (const param of readFileSync(facade, 'utf8').matchAll(new RegExp(String.raw`constructor\(([^)]*)\)`, 'g'))) {
  for (const declared of param[1].matchAll(new RegExp(String.raw`(?:^|,)\s*((?:public|protected|private)?\s*(?:readonly\s+)?)(${names})\s*:`, 'g'))) {
    if (/\b(public|protected|readonly)\b/.test(declared[1]) && !/\bprivate\b/.test(declared[1])) {
      problems.push(`${name(facade)}: the constructor declares ${declared[2]} without private: the chain's ${declared[2]} stays inside runtime/chain`);
    }
  }
}

if (problems.length > 0) {
  console.error(`the chain's insides reached from outside runtime/chain:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`chain facade: kept by ${tsFiles(runtime).length} files of runtime/`);
