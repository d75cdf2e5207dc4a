import { spawnOwned } from './child-processes.js';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { waitFor } from './ports.js';

const MIB = 1024 * 1024;
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final deflate block (fixed Huffman codes, end of block only). */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * A valid gzip body that inflates to `inflatedMiB` MiB of zeros, ~1 KB of it per MiB (a 1 GiB
 * bomb is ~1 MiB). Compressing that many zeros would take seconds and the whole size in memory:
 * one MiB is deflated once, ending in a full flush (byte-aligned, history reset), so its bytes
 * are a self-contained piece of deflate stream, repeated as many times as needed.
 */
export const gzipBomb = (inflatedMiB: number): Buffer => {
  const zeros = Buffer.alloc(MIB);
  const piece = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < inflatedMiB; i++) crc = crc32(zeros, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((inflatedMiB * MIB) % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, ...Array.from({ length: inflatedMiB }, () => piece), FINAL_EMPTY_BLOCK, trailer]);
};

/** The bidder process of {@link startFileBidderProcess}: answers every request with the file's bytes as a gzip body. */
const BIDDER_SOURCE = `
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const body = readFileSync(process.argv[1]);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) }).end(body));
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:' + server.address().port + '/\\n'));
`;

export interface BidderProcess {
  readonly url: string;
  readonly pid: number;
  close(): Promise<void>;
}

/**
 * A bidder in a process of its own on 127.0.0.1 that answers every request with the bytes of
 * `file` as `Content-Encoding: gzip` (its own process, so serving a flood costs the test's event
 * loop nothing and the server's memory is the server's alone).
 */
export const startFileBidderProcess = async (file: string): Promise<BidderProcess> => {
  const child = spawnOwned(process.execPath, ['--input-type=module', '-e', BIDDER_SOURCE, file]);
  const { proc } = child;
  const out = (): string => child.output();
  const close = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await child.exited;
  };
  const listening = (): string | undefined => /listening on (\S+)/.exec(out())?.[1];
  try {
    await waitFor('the bidder process to listen', () => Promise.resolve(listening() !== undefined || proc.exitCode !== null), 30_000);
    if (listening() === undefined) throw new Error(`the bidder process exited before it listened: ${out()}`);
  } catch (err) {
    await close();
    throw err;
  }
  return { url: listening()!, pid: proc.pid!, close };
};
