import { nullProtoRecord, setOwn } from '../../core/own-keys.js';
import { goKeyCompare } from '../go-text.js';
import { isAbsent, isObject } from '../json-guards.js';
import { fitsGoInt, fitsGoSlice, fitsGoString, goField } from './go-fields.js';

/**
 * Native 1.2 answers list impression pixels in `eventtrackers`; native 1.1 renderers read only
 * `imptrackers`. Prebid Server's `ix` adapter copies every image impression tracker into
 * `imptrackers` (deduplicated, sorted) and writes the markup again from its typed native response,
 * whose field order and empty-field rules are reproduced here so the markup reads byte for byte
 * as Prebid Server's.
 */

type Json = Record<string, unknown>;

const EVENT_IMPRESSION = 1;
const METHOD_IMAGE = 1;

const fitsStrings = (v: unknown): boolean => fitsGoSlice(v, (x) => typeof x === 'string');

/** Each field a decoded object may hold, with whether its value fits. */
type Shape = Readonly<Record<string, (v: unknown) => boolean>>;

const fitsShape = (v: unknown, shape: Shape): boolean => {
  if (isAbsent(v)) return true;
  if (!isObject(v)) return false;
  return Object.entries(shape).every(([name, fits]) => fits(goField(v, name)));
};

const ANY = (): boolean => true;
const LINK: Shape = { url: fitsGoString, clicktrackers: fitsStrings, fallback: fitsGoString, ext: ANY };
const ASSET: Shape = {
  id: fitsGoInt,
  required: (v) => fitsGoInt(v) && (isAbsent(v) || Math.abs(v as number) <= 127),
  title: (v) => fitsShape(v, { text: fitsGoString, len: fitsGoInt, ext: ANY }),
  img: (v) => fitsShape(v, { type: fitsGoInt, url: fitsGoString, w: fitsGoInt, h: fitsGoInt, ext: ANY }),
  video: (v) => fitsShape(v, { vasttag: fitsGoString }),
  data: (v) => fitsShape(v, { type: fitsGoInt, len: fitsGoInt, label: fitsGoString, value: fitsGoString, ext: ANY }),
  link: (v) => fitsShape(v, LINK),
  ext: ANY,
};
const TRACKER: Shape = { event: fitsGoInt, method: fitsGoInt, url: fitsGoString, customdata: ANY, ext: ANY };
const RESPONSE: Shape = {
  ver: fitsGoString,
  assets: (v) => fitsGoSlice(v, (a) => fitsShape(a, ASSET)),
  assetsurl: fitsGoString,
  dcourl: fitsGoString,
  link: (v) => fitsShape(v, LINK),
  imptrackers: fitsStrings,
  jstracker: fitsGoString,
  eventtrackers: (v) => fitsGoSlice(v, (t) => fitsShape(t, TRACKER)),
  privacy: fitsGoString,
  ext: ANY,
};

/** How Go writes one field: `omit` leaves out the zero value (`omitempty`), `keep` always writes it. */
type Rule = 'omit' | 'keep';
type Encoder = (v: unknown) => unknown;
type Fields = readonly (readonly [string, Rule, Encoder])[];

const str: Encoder = (v) => (typeof v === 'string' ? v : '');
const int: Encoder = (v) => (typeof v === 'number' ? v : 0);
const raw: Encoder = (v) => (isAbsent(v) ? undefined : v);
const strings: Encoder = (v) => (Array.isArray(v) ? v.map(str) : []);

/** An object with `fields` in Go's order; a field with `omit` is left out when empty. */
const encodeStruct = (v: unknown, fields: Fields): Json => {
  const source = isObject(v) ? v : {};
  const out: Json = {};
  for (const [name, rule, encode] of fields) {
    const value = encode(goField(source, name));
    if (value === undefined) continue;
    const empty = value === '' || value === 0 || (Array.isArray(value) && value.length === 0);
    if (rule === 'omit' && empty) continue;
    out[name] = value;
  }
  return out;
};

const struct = (fields: Fields): Encoder => (v) => (isObject(v) ? encodeStruct(v, fields) : undefined);
// A null element of a Go slice is the zero struct, written with its kept fields.
const list = (fields: Fields): Encoder => (v) => (Array.isArray(v) ? v.map((x) => encodeStruct(x, fields)) : []);

const LINK_FIELDS: Fields = [
  ['url', 'keep', str],
  ['clicktrackers', 'omit', strings],
  ['fallback', 'omit', str],
  ['ext', 'omit', raw],
];
const ASSET_FIELDS: Fields = [
  // `id` is a pointer in Go: written when present, even 0.
  ['id', 'keep', (v) => (typeof v === 'number' ? v : undefined)],
  ['required', 'omit', int],
  ['title', 'keep', struct([['text', 'keep', str], ['len', 'omit', int], ['ext', 'omit', raw]])],
  ['img', 'keep', struct([['type', 'omit', int], ['url', 'keep', str], ['w', 'omit', int], ['h', 'omit', int], ['ext', 'omit', raw]])],
  ['video', 'keep', struct([['vasttag', 'keep', str]])],
  ['data', 'keep', struct([['type', 'omit', int], ['len', 'omit', int], ['label', 'omit', str], ['value', 'keep', str], ['ext', 'omit', raw]])],
  ['link', 'keep', struct(LINK_FIELDS)],
  ['ext', 'omit', raw],
];
const TRACKER_FIELDS: Fields = [
  ['event', 'keep', int],
  ['method', 'keep', int],
  ['url', 'omit', str],
  ['customdata', 'omit', raw],
  ['ext', 'omit', raw],
];

/** A native response as Go's typed struct writes it (the link is a value, so always written). */
const encodeResponse = (v: unknown): Json =>
  encodeStruct(v, [
    ['ver', 'omit', str],
    ['assets', 'omit', list(ASSET_FIELDS)],
    ['assetsurl', 'omit', str],
    ['dcourl', 'omit', str],
    ['link', 'keep', (l) => encodeStruct(l, LINK_FIELDS)],
    ['imptrackers', 'omit', strings],
    ['jstracker', 'omit', str],
    ['eventtrackers', 'omit', list(TRACKER_FIELDS)],
    ['privacy', 'omit', str],
    ['ext', 'omit', raw],
  ]);

/** `imptrackers` merged with the image impression trackers of `eventtrackers`: unique, sorted bytewise. */
export const mergedImpTrackers = (native: Json): string[] => {
  const urls = new Set<string>();
  const imp = goField(native, 'imptrackers');
  if (Array.isArray(imp)) for (const url of imp) urls.add(str(url) as string);
  const events = goField(native, 'eventtrackers');
  for (const t of Array.isArray(events) ? events : []) {
    if (isObject(t) && goField(t, 'event') === EVENT_IMPRESSION && goField(t, 'method') === METHOD_IMAGE) urls.add(str(goField(t, 'url')) as string);
  }
  return [...urls].sort(goKeyCompare);
};

/** Go's encoder without HTML escaping still escapes the two JavaScript line separators. */
const goStringify = (v: unknown): string => JSON.stringify(v).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const hasEventTrackers = (native: unknown): native is Json => {
  const events = isObject(native) ? goField(native, 'eventtrackers') : undefined;
  return Array.isArray(events) && events.length > 0;
};

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};


/** The response as Go writes it once `imptrackers` is the merged list (left out when empty). */
const withImpTrackers = (native: Json): Json => {
  const merged = nullProtoRecord<unknown>();
  // Every spelling of the field goes, so the merged list is the one the encoder reads.
  for (const [key, value] of Object.entries(native)) if (goField({ [key]: true }, 'imptrackers') === undefined) setOwn(merged, key, value);
  merged.imptrackers = mergedImpTrackers(native);
  return encodeResponse(merged);
};

/**
 * A native bid's markup with its image impression trackers also in `imptrackers`, first as a
 * native 1.1 answer (`{"native": {...}}`), then as a 1.2 one (the response at the top). Markup that
 * is not such JSON, does not decode as Go's native response, or has no `eventtrackers` stays as is.
 */
export const withMergedImpTrackers = (adm: string): string => {
  let out = adm;
  const wrapper = parse(out);
  if (isObject(wrapper) && fitsShape(goField(wrapper, 'native'), RESPONSE)) {
    const native = goField(wrapper, 'native');
    if (hasEventTrackers(native)) out = goStringify({ native: withImpTrackers(native) });
  }
  const top = parse(out);
  if (isObject(top) && fitsShape(top, RESPONSE) && hasEventTrackers(top)) out = goStringify(withImpTrackers(top));
  return out;
};
