import { Type } from "@sinclair/typebox";
import { Envelope, EventTypeConfiguration, EventTypeCreate, EventTypePatch, InitBody, InitData, RegenerateTokenBody } from "@booking/wire";

export { EventTypeCreate, EventTypePatch, InitBody, RegenerateTokenBody };

/** Response of `GET /configuration`. */
export const ConfigurationResponse = Envelope(Type.Object({ configuration: EventTypeConfiguration }));

/** Response of `POST /event-types/init`. */
export const InitResponse = Envelope(InitData);
