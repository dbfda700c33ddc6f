import * as z from 'zod';

// The field types the API's definitions are made of, with the formats the swagger states.
// Integers are int64 unless marked otherwise (swagger-definitions.ts fills the format in).

export const str = z.string();
export const bool = z.boolean();
export const int = z.int();
export const uint64 = z.int().nonnegative().meta({ format: 'uint64' });
export const dateTime = z.string().meta({ format: 'date-time' });
export const email = z.string().meta({ format: 'email' });
/** An object whose keys the definition does not fix. */
export const freeObject = z.record(z.string(), z.unknown());
