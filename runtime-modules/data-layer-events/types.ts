/**
 * The push types application teams use, derived at type level from the table
 * in shapes.ts (nothing here is written twice). scripts/events-doc.js --dts
 * prints the same types as a standalone sitetags-events.d.ts, and a unit test
 * checks that both agree for every event.
 */
import type { EVENT_SHAPES } from "./shapes";

type Shapes = typeof EVENT_SHAPES;

/** The documented event names ("search", "list-change", ...). */
export type DataLayerEvent = keyof Shapes;

/** One member of a type string: a type name, a number literal ("1") or a string literal. */
type Member<M extends string> = M extends "string"
  ? string
  : M extends "number" | "integer"
    ? number
    : M extends "boolean"
      ? boolean
      : M extends "unknown"
        ? unknown
        : M extends `${infer N extends number}`
          ? N
          : M;

/** "a|b|c": the union of its members. */
type Members<S extends string> = S extends `${infer A}|${infer B}` ? Member<A> | Members<B> : Member<S>;

/** A type string without its "?": "x[]" is a list of x. */
type TypeOf<S extends string> = S extends `${infer B}[]` ? Members<B>[] : Members<S>;

/** A field's TypeScript type from its descriptor. */
type Field<T> = T extends `${infer S}?` ? TypeOf<S> : T extends string ? TypeOf<T> : T extends readonly [infer O] ? Shape<O>[] : Shape<T>;

/** A field is optional when its key ends in "?" (objects) or its type string does. */
type Optional<K, T> = K extends `${string}?` ? true : T extends `${string}?` ? true : false;
type Name<K> = K extends `${infer N}?` ? N : K;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** An object descriptor as a TypeScript object type. */
type Shape<F> = Simplify<
  { -readonly [K in keyof F as K extends string ? (Optional<K, F[K]> extends true ? never : K) : never]: Field<F[K]> } & {
    -readonly [K in keyof F as K extends string ? (Optional<K, F[K]> extends true ? Name<K> : never) : never]?: Field<F[K]>;
  }
>;

/** The fields of one event's push (without `event`). */
export type EventFields<E extends DataLayerEvent> = Shape<Shapes[E]>;

/** The push of one documented event: `{ event: "search"; term: string; type?: string; ... }`. */
export type PushOf<E extends DataLayerEvent> = Simplify<{ event: E } & Shape<Shapes[E]>>;

/** Every documented event push. */
export type DataLayerPush = { [E in DataLayerEvent]: PushOf<E> }[DataLayerEvent];

/** A data-only push: data merged into the data layer's state, no event. */
export type DataOnlyPush = { event?: undefined; [key: string]: unknown };

/** Anything an application may push: a documented event or data only. */
export type DataLayerItem = DataLayerPush | DataOnlyPush;
