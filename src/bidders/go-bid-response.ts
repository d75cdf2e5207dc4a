import { jsonProblem, parseBoundedJson } from '../core/bounded-json.js';
import { badInput, badServerResponse, BidderErrorCode } from './adapter.js';
import type { Bid, MediaType } from '../openrtb/types.js';
import type { BidderError, BidderResponse, ResponseData, TypedBid } from './adapter.js';
import { isAbsent, isObject } from './json-guards.js';

/**
 * Prebid Server's adapters decode a bidder's answer into typed OpenRTB structs: one field of the
 * wrong type fails the whole answer there. These checks do the same on the parsed JSON, so an
 * answer is taken or refused as in Go. `null` is fine anywhere (Go leaves the field at its zero
 * value). Shared by the adapters that follow a Go adapter (appnexus, openx, pubmatic).
 */

/** The JSON a Go field of each kind decodes from; `json` is a `json.RawMessage`, which takes any value. */
export type FieldKind = 'string' | 'number' | 'int' | 'int8' | 'strings' | 'ints' | 'json';

// Field lists as [name, kind] pairs, made once: they are walked for every bid of every answer.
const BID_FIELDS = Object.entries<FieldKind>({
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
});

const RESPONSE_FIELDS = Object.entries<FieldKind>({ id: 'string', bidid: 'string', cur: 'string', customdata: 'string', nbr: 'int' });
const SEAT_FIELDS = Object.entries<FieldKind>({ seat: 'string', group: 'int8' });

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
    case 'json':
      return true;
  }
};

const NOUN: Readonly<Record<FieldKind, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  int8: 'a small integer',
  strings: 'an array of strings',
  ints: 'an array of integers',
  json: 'JSON',
};

/** Why Go would refuse `v` for a field of `kind` (`is not <kind>`); `undefined` when it decodes (`null` always does). */
export const kindProblem = (kind: FieldKind, v: unknown): string | undefined => (isAbsent(v) || fits(kind, v) ? undefined : `is not ${NOUN[kind]}`);

/** The first field of `obj` whose type Go would refuse, as `<name> is not <kind>`. */
const fieldsProblem = (obj: Record<string, unknown>, fields: readonly (readonly [string, FieldKind])[]): string | undefined => {
  for (const [name, kind] of fields) {
    const v = obj[name];
    if (!isAbsent(v) && !fits(kind, v)) return `${name} is not ${NOUN[kind]}`;
  }
  return undefined;
};

/** Why the parsed answer would not decode as an OpenRTB bid response in Go; `undefined` when it would. */
export const responseProblem = (body: Record<string, unknown>): string | undefined => {
  const top = fieldsProblem(body, RESPONSE_FIELDS);
  if (top !== undefined) return top;
  if (isAbsent(body.seatbid)) return undefined;
  if (!Array.isArray(body.seatbid)) return 'seatbid is not an array';
  for (const [s, seat] of (body.seatbid as unknown[]).entries()) {
    if (isAbsent(seat)) continue;
    if (!isObject(seat)) return `seatbid[${s}] is not an object`;
    const seatProblem = fieldsProblem(seat, SEAT_FIELDS);
    if (seatProblem !== undefined) return `seatbid[${s}].${seatProblem}`;
    if (isAbsent(seat.bid)) continue;
    if (!Array.isArray(seat.bid)) return `seatbid[${s}].bid is not an array`;
    for (const [b, bid] of (seat.bid as unknown[]).entries()) {
      if (isAbsent(bid)) continue;
      if (!isObject(bid)) return `seatbid[${s}].bid[${b}] is not an object`;
      const bidProblem = fieldsProblem(bid, BID_FIELDS);
      if (bidProblem !== undefined) return `seatbid[${s}].bid[${b}].${bidProblem}`;
    }
  }
  return undefined;
};

/** What an adapter's `makeBids` answers. */
export interface AdapterBids {
  readonly response?: BidderResponse;
  readonly errors: BidderError[];
}

/** A bid response that decodes as Go would decode it, seat and bid entries not yet read. */
export interface DecodedBidResponse {
  readonly seatbid?: readonly ({ readonly bid?: readonly (Record<string, unknown> | null)[] | null } | null)[] | null;
  readonly cur?: string | null;
  readonly ext?: unknown;
}

/**
 * The common start of a Go adapter's `MakeBids`: 204 is no bid; 400 is the request's fault (bad
 * input); any other status but 200 is the server's; the body must parse (nested at most
 * `MAX_JSON_DEPTH`) and decode as a bid response, else the answer is refused whole. `null` decodes
 * to an empty answer in Go: no bids, no error. Either the decoded body, or the adapter's answer.
 */
export const decodeBidResponse = (response: ResponseData): { readonly body: DecodedBidResponse } | { readonly answer: AdapterBids } => {
  if (response.status === 204) return { answer: { errors: [] } };
  const statusMessage = `Unexpected status code: ${response.status}. Run with request.debug = 1 for more info`;
  if (response.status === 400) return { answer: { errors: [badInput(statusMessage)] } };
  if (response.status !== 200) return { answer: { errors: [badServerResponse(statusMessage)] } };
  let body: unknown;
  try {
    body = parseBoundedJson(response.body);
  } catch (err) {
    return { answer: { errors: [badServerResponse(`Bad server response: ${jsonProblem(err)}`)] } };
  }
  if (body === null) return { answer: { response: { currency: 'USD', bids: [] }, errors: [] } };
  if (!isObject(body)) return { answer: { errors: [badServerResponse('Bad server response: not a JSON object')] } };
  const problem = responseProblem(body);
  if (problem !== undefined) return { answer: { errors: [badServerResponse(`Bad server response: ${problem}`)] } };
  return { body };
};

/** The answer's currency: `cur`, USD when absent or empty. */
export const answerCurrency = (body: DecodedBidResponse): string => (typeof body.cur === 'string' && body.cur !== '' ? body.cur : 'USD');

/**
 * Every bid of every seat through `read`, which types a bid or drops it (saying why in `errors`).
 * A null bid decodes as an empty one in Go, so `read` gets `{}` for it.
 */
export const readBids = (body: DecodedBidResponse, read: (bid: Bid, errors: BidderError[]) => TypedBid | undefined): AdapterBids => {
  const errors: BidderError[] = [];
  const bids: TypedBid[] = [];
  for (const seat of body.seatbid ?? []) {
    for (const raw of seat?.bid ?? []) {
      const typed = read((raw ?? {}) as Bid, errors);
      if (typed !== undefined) bids.push(typed);
    }
  }
  return { response: { currency: answerCurrency(body), bids }, errors };
};

/**
 * {@link decodeBidResponse} where the Go adapter passes its JSON decoder's error on as it is: the
 * errors of an unreadable answer keep their wording and are untyped, code 999.
 */
export const decodeBidResponseUntyped = (response: ResponseData): ReturnType<typeof decodeBidResponse> => {
  const decoded = decodeBidResponse(response);
  if (!('answer' in decoded)) return decoded;
  return { answer: { ...decoded.answer, errors: decoded.answer.errors.map((e) => ({ code: BidderErrorCode.UNKNOWN, message: e.message })) } };
};

/** `read` with its answer in USD: for bidders whose Go adapter never reads the answer's `cur`. */
export const inUsd = (read: AdapterBids): AdapterBids => (read.response === undefined ? read : { ...read, response: { ...read.response, currency: 'USD' } });

/**
 * The whole `makeBids` of a bidder whose Go adapter reads the answer plainly: decoded as Go would
 * (an unreadable answer is one untyped error), every bid as sent, typed by `typeOf`, in USD.
 */
export const readBidsInUsd = (response: ResponseData, typeOf: (bid: Bid) => MediaType): AdapterBids => {
  const decoded = decodeBidResponseUntyped(response);
  if ('answer' in decoded) return decoded.answer;
  return inUsd(readBids(decoded.body, (bid) => ({ bid, type: typeOf(bid) })));
};
