/**
 * Prebid Server decodes OpenX's answer into typed OpenRTB structs: one field of the wrong type
 * fails the whole answer there. These checks do the same on the parsed JSON, so an answer is
 * taken or refused as in Go. `null` is fine anywhere (Go leaves the field at its zero value).
 */

type FieldKind = 'string' | 'number' | 'int' | 'int8' | 'strings' | 'ints';

const BID_FIELDS: Readonly<Record<string, FieldKind>> = {
  id: 'string',
  impid: 'string',
  price: 'number',
  nurl: 'string',
  burl: 'string',
  lurl: 'string',
  adm: 'string',
  adid: 'string',
  adomain: 'strings',
  bundle: 'string',
  iurl: 'string',
  cid: 'string',
  crid: 'string',
  tactic: 'string',
  cattax: 'int',
  cat: 'strings',
  attr: 'ints',
  apis: 'ints',
  api: 'int',
  protocol: 'int',
  qagmediarating: 'int',
  language: 'string',
  langb: 'string',
  dealid: 'string',
  w: 'int',
  h: 'int',
  wratio: 'int',
  hratio: 'int',
  exp: 'int',
  dur: 'int',
  mtype: 'int8',
  slotinpod: 'int8',
};

const RESPONSE_FIELDS: Readonly<Record<string, FieldKind>> = { id: 'string', bidid: 'string', cur: 'string', customdata: 'string', nbr: 'int' };
const SEAT_FIELDS: Readonly<Record<string, FieldKind>> = { seat: 'string', group: 'int8' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;
// int64 bounds; a JSON integer past them does not decode in Go.
const fitsInt = (v: unknown): boolean => Number.isInteger(v) && Math.abs(v as number) <= 2 ** 63;
const fitsInt8 = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= -128 && (v as number) <= 127;

const fits = (kind: FieldKind, v: unknown): boolean => {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'int':
      return fitsInt(v);
    case 'int8':
      return fitsInt8(v);
    case 'strings':
      return Array.isArray(v) && v.every((x) => x === null || typeof x === 'string');
    case 'ints':
      return Array.isArray(v) && v.every((x) => x === null || fitsInt(x));
  }
};

const NOUN: Readonly<Record<FieldKind, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  int8: 'a small integer',
  strings: 'an array of strings',
  ints: 'an array of integers',
};

const fieldsProblem = (obj: Record<string, unknown>, fields: Readonly<Record<string, FieldKind>>, where: string): string | undefined => {
  for (const [name, kind] of Object.entries(fields)) {
    const v = obj[name];
    if (!isAbsent(v) && !fits(kind, v)) return `${where}${name} is not ${NOUN[kind]}`;
  }
  return undefined;
};

/** Why the parsed answer would not decode as an OpenRTB bid response in Go; `undefined` when it would. */
export const responseProblem = (body: Record<string, unknown>): string | undefined => {
  const top = fieldsProblem(body, RESPONSE_FIELDS, '');
  if (top !== undefined) return top;
  if (isAbsent(body.seatbid)) return undefined;
  if (!Array.isArray(body.seatbid)) return 'seatbid is not an array';
  for (const [s, seat] of (body.seatbid as unknown[]).entries()) {
    if (isAbsent(seat)) continue;
    if (!isObject(seat)) return `seatbid[${s}] is not an object`;
    const seatProblem = fieldsProblem(seat, SEAT_FIELDS, `seatbid[${s}].`);
    if (seatProblem !== undefined) return seatProblem;
    if (isAbsent(seat.bid)) continue;
    if (!Array.isArray(seat.bid)) return `seatbid[${s}].bid is not an array`;
    for (const [b, bid] of (seat.bid as unknown[]).entries()) {
      if (isAbsent(bid)) continue;
      if (!isObject(bid)) return `seatbid[${s}].bid[${b}] is not an object`;
      const bidProblem = fieldsProblem(bid, BID_FIELDS, `seatbid[${s}].bid[${b}].`);
      if (bidProblem !== undefined) return bidProblem;
    }
  }
  return undefined;
};
