import { isIPv4, isIPv6 } from 'node:net';

/** An IPv4 address with only its first `keepBits` bits kept (`1.2.3.4`, 24 → `1.2.3.0`); `''` when not an address. */
export const maskIPv4 = (ip: string, keepBits: number): string => {
  if (!isIPv4(ip)) return '';
  const n = ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  const keep = Math.max(0, Math.min(32, keepBits));
  const masked = keep === 0 ? 0 : Math.floor(n / 2 ** (32 - keep)) * 2 ** (32 - keep);
  return [24, 16, 8, 0].map((shift) => Math.floor(masked / 2 ** shift) % 256).join('.');
};

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail expanded). */
const groupsOf = (ip: string): number[] => {
  let text = ip.split('%')[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail !== null) {
    const b = tail[1]!.split('.').map(Number);
    text = `${text.slice(0, tail.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(zeros).fill('0'), ...right].map((g) => parseInt(g, 16));
};

/** RFC 5952 text: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
const formatIPv6 = (groups: number[]): string => {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
};

/** An IPv6 address with only its first `keepBits` bits kept (56 keeps the /56 prefix); `''` when not an address. */
export const maskIPv6 = (ip: string, keepBits: number): string => {
  if (!isIPv6(ip)) return '';
  const groups = groupsOf(ip);
  const keep = Math.max(0, Math.min(128, keepBits));
  for (let i = 0; i < 8; i++) {
    const bitsHere = Math.max(0, Math.min(16, keep - i * 16));
    groups[i] = bitsHere === 0 ? 0 : groups[i]! & ((0xffff << (16 - bitsHere)) & 0xffff);
  }
  return formatIPv6(groups);
};
