import type { Imp } from '../../openrtb/types.js';
import { isAbsent } from '../json-guards.js';

const FORMATS = ['banner', 'video', 'native'] as const;

/**
 * The imp once per media type Sharethrough takes, banner first, then video, then native: each
 * copy keeps one of them and none of the others, and never an audio. `undefined` when the imp
 * offers none of the three. The imp given is not changed.
 */
export const splitByMediaType = (imp: Imp): Imp[] | undefined => {
  const offered = FORMATS.filter((format) => !isAbsent(imp[format]));
  if (offered.length === 0) return undefined;
  return offered.map((keep) => {
    const copy: Imp = { ...imp };
    delete copy.audio;
    for (const format of FORMATS) if (format !== keep) delete copy[format];
    return copy;
  });
};
