/**
 * openbid's version, as `package.json` has it (a test keeps the two equal): what `/version`
 * answers and what adapters send where Prebid Server sends its own version.
 */
export const OPENBID_VERSION = '0.1.0';
