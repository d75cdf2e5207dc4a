/**
 * The slice of a pino logger the domain uses. Declared here so that domain modules do not import
 * pino; any pino Logger satisfies it.
 */
export interface Logger {
  fatal(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  trace(obj: unknown, msg?: string): void;
  /** `options.level` sets the child's own level, which may be below its parent's. */
  child(bindings: Record<string, unknown>, options?: { level?: string }): Logger;
}

/** A logger that drops everything; for unit tests of pure logic. */
export const silentLogger: Logger = {
  fatal: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  child: () => silentLogger,
};
