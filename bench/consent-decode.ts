// TCF v2 decoding of crafted consent strings: the IAB's decoder (@iabtechlabtcf/core, which
// openbid used until issue 36) against openbid's (src/privacy/tcf-consent.ts). The strings are
// valid and hold as many publisher-restriction ranges over every vendor (1–65,535) as fit, as an
// attacker makes them. CPU ms per decode of this process, openbid's the median of 50 after a
// warm-up, the IAB's one decode (seconds each past a few KiB: capped by --iab-max, default 4096).
//   node --import tsx bench/consent-decode.ts [--iab-max <chars>]
import { TCString } from '@iabtechlabtcf/core';
import { decodeTcfString, DEFAULT_MAX_CONSENT_LENGTH } from '../src/privacy/tcf-consent.js';
import { craftedTcf } from '../test/support/consent-strings.js';

const flag = process.argv.indexOf('--iab-max');
const iabMax = flag >= 0 ? Number(process.argv[flag + 1]) : 4096;

const cpuMs = (fn: () => unknown): number => {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log('chars    openbid ms (median of 50)   IAB ms (one decode)');
for (const length of [256, 1024, 4096, DEFAULT_MAX_CONSENT_LENGTH, 65536, 131072]) {
  const text = craftedTcf(length);
  for (let i = 0; i < 10; i++) decodeTcfString(text);
  const ours = median(Array.from({ length: 50 }, () => cpuMs(() => decodeTcfString(text))));
  const iab = length <= iabMax ? cpuMs(() => TCString.decode(text)).toFixed(0) : '(not run)';
  console.log(`${String(text.length).padEnd(9)}${ours.toFixed(3).padEnd(28)}${iab}`);
}
