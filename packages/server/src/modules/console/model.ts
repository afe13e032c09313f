export { ConsoleSignInBody } from "@booking/wire";
