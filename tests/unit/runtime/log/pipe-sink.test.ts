import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureLogging, lines, tempDir, waitFor } from './helpers.js';

test('a pipe logger runs its command in the node directory and writes the formatted records to its stdin', async () => {
  const dir = tempDir();
  const { logging } = captureLogging({ pipe: { type: 'pipe', command: 'cat >> out.txt', format: '<{Message}>' } }, dir);
  logging.info('chain', 'one');
  logging.info('chain', 'two');
  await logging.close();
  // The format supplies any framing: none here.
  assert.is(readFileSync(join(dir, 'out.txt'), 'utf8'), '<one><two>');
});

test('a pipe logger without a format sends one JSON record per line', async () => {
  const dir = tempDir();
  const { logging } = captureLogging({ pipe: { type: 'pipe', command: 'cat > out.txt' } }, dir);
  logging.warning('p2p', 'hello');
  await logging.close();
  const [line] = lines(join(dir, 'out.txt'));
  assert.equal(JSON.parse(line).Message, 'hello');
  assert.equal(JSON.parse(line).Severity, 'warning');
});

test('the command runs through a shell, so it can be a pipeline reading framed records', async () => {
  const dir = tempDir();
  const counter = `node -e "let n=0;process.stdin.on('data',d=>n+=d.length).on('end',()=>require('fs').writeFileSync('bytes.txt',String(n)))"`;
  const { logging } = captureLogging({ pipe: { type: 'pipe', command: `tee copy.txt | ${counter}`, format: '{FrameDec:{Message}}' } }, dir);
  logging.info('chain', 'abc');
  logging.info('chain', 'héllo');
  await logging.close();
  await waitFor(() => existsSync(join(dir, 'bytes.txt')), 'the pipeline to finish');
  assert.is(readFileSync(join(dir, 'copy.txt'), 'utf8'), '3 abc6 héllo');
  assert.is(readFileSync(join(dir, 'bytes.txt'), 'utf8'), String(Buffer.byteLength('3 abc6 héllo')));
});

test('a changed command takes the records that follow; the old one gets EOF first', async () => {
  const dir = tempDir();
  const config = (file: string) => ({ pipe: { type: 'pipe', command: `cat >> ${file}`, format: '{Message}\n' } });
  const { logging } = captureLogging(config('a.txt'), dir);
  for (let i = 0; i < 100; i++) logging.info('chain', `r${i}`);
  logging.reconfigure(config('b.txt'));
  for (let i = 100; i < 200; i++) logging.info('chain', `r${i}`);
  await logging.close();
  assert.equal(lines(join(dir, 'a.txt')), Array.from({ length: 100 }, (_, i) => `r${i}`));
  assert.equal(lines(join(dir, 'b.txt')), Array.from({ length: 100 }, (_, i) => `r${i + 100}`));
});

test('a command that does not exit on EOF gets SIGTERM after the grace period', async () => {
  const dir = tempDir();
  const stubborn = "trap 'echo terminated > term.txt; exit 0' TERM; while :; do sleep 0.01; done";
  const { logging, stderr } = captureLogging({ pipe: { type: 'pipe', command: stubborn } }, dir, undefined, 100);
  logging.info('chain', 'ignored');
  await logging.close();
  assert.is(readFileSync(join(dir, 'term.txt'), 'utf8'), 'terminated\n');
  assert.equal(stderr, []);
});

test('a command that exits early is reported once on stderr; logging goes on without throwing', async () => {
  const dir = tempDir();
  const { logging, stderr } = captureLogging({ pipe: { type: 'pipe', command: 'exit 3' } }, dir);
  await waitFor(() => stderr.length > 0, 'the exit report');
  for (let i = 0; i < 5; i++) logging.info('chain', 'lost');
  await logging.close();
  assert.equal(stderr, ["tsibase: logger 'pipe': running 'exit 3': exited early (status 3)\n"]);
});

test.run();
