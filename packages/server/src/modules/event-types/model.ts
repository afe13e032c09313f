import { Type } from "@sinclair/typebox";
import { Envelope, EventTypeConfiguration, InitBody, InitData } from "@booking/wire";

export { InitBody };

/** Response of `GET /configuration`. */
export const ConfigurationResponse = Envelope(Type.Object({ configuration: EventTypeConfiguration }));

/** Response of `POST /event-types/init`. */
export const InitResponse = Envelope(InitData);
