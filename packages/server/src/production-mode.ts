/**
 * Puts the libraries into production mode whenever the server's own setting says production.
 * Elysia (and through it Bun's server) decide at import time from NODE_ENV whether to show error
 * details and Bun's development pages; BOOKING_ENV=production must mean production alone. Entry
 * points import this module first, before anything that imports Elysia.
 */
if (process.env.BOOKING_ENV === "production") process.env.NODE_ENV = "production";
