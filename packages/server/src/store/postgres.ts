/** The PostgreSQL engine; its parts live in ./postgres/, one file per concern. */
export * from "./postgres/index.ts";
