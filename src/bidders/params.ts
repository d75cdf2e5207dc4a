import { Compile } from 'typebox/compile';
import type { TSchema } from 'typebox';

/** Checks a bidder's params against its schema; a message per problem, empty when they are valid. */
export type ParamsCheck = (params: unknown) => string[];

/**
 * Compiles a params schema once (at registry creation), so the check per imp is a generated
 * function call. Messages name the field as Prebid Server's do: `"placementId": must be integer`.
 */
export const compileParamsCheck = (schema: TSchema): ParamsCheck => {
  const validator = Compile(schema);
  return (params) => {
    if (validator.Check(params)) return [];
    const seen = new Set<string>();
    for (const e of validator.Errors(params)) {
      // An anyOf reports each branch and then itself: the summary line is the useful one.
      if (e.keyword === 'type' && e.schemaPath.includes('/anyOf/')) continue;
      const where = e.instancePath === '' ? 'params' : `"${e.instancePath.slice(1).replaceAll('/', '.')}"`;
      seen.add(`${where}: ${e.message}`);
    }
    return [...seen];
  };
};
