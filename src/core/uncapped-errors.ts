import { Settings } from 'typebox/system';

/**
 * Runs `collect`, a TypeBox `Errors` call (interpreted or compiled), with TypeBox's cap on the
 * errors one call gathers (`maxErrors`, 8 by default) lifted, and returns what it returns. With
 * the cap, `additionalProperties: false` spends one error per unknown key on the key's `false`
 * schema, so eight unknown keys leave no room for anything else, the parent's own error included.
 * Synchronous, and the cap is put back before anything else runs: no other check sees it lifted.
 * Callers still decide validity with `Check`; the list only explains it.
 */
export const withoutErrorCap = <T>(collect: () => T): T => {
  const cap = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER });
  try {
    return collect();
  } finally {
    Settings.Set({ maxErrors: cap });
  }
};
