import type { ReactiveController, ReactiveControllerHost } from "lit";
import { ContextProvider } from "@lit/context";
import type { EventTypeConfiguration } from "@booking/wire";
import { environmentContext, type CalendarEnvironment } from "../context.ts";
import { DateTexts, localeUses12Hours } from "../dates.ts";
import { chooseLanguage, type Language } from "../i18n/catalog.ts";
import { loadCatalog, loadedCatalog } from "../i18n/load.ts";
import { loadPart, zonesPart } from "../parts/load.ts";
import { textOverrides } from "../i18n/organizer.ts";
import { safeLocale, textsWith, type Texts } from "../i18n/texts.ts";

/** Where the visitor's 12h/24h choice is kept for the visit (the tab's session). */
const HOUR_CYCLE_KEY = "booking-calendar:hour12";

/** What the environment is made of, as the element has it now. */
export interface EnvironmentSource {
  /** The `locale` attribute; empty when not given. */
  locale(): string;
  /** The loaded event type's configuration, if any. */
  configuration(): EventTypeConfiguration | null;
  /** The visitor's zone. */
  zone(): string;
}

/**
 * What the element and its sub-views speak, provided to them as a context: the texts in the chosen
 * language with the event type's own wording, dates in its locale on the visitor's 12h/24h clock,
 * and the visitor's zone. Made again before an update whenever one of these changed, or when the
 * catalog of the language arrived (English until then). The visitor's clock is kept for the visit.
 */
export class EnvironmentController implements ReactiveController {
  readonly #provider: ContextProvider<typeof environmentContext>;
  #hour12 = rememberedHour12();
  /** What the environment was last made from. */
  #madeFrom: unknown[] = [];
  #catalogArrived = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly source: EnvironmentSource,
  ) {
    // English on the browser's clock until the first update makes the element's own.
    const initialValue = { texts: textsWith(), dates: new DateTexts("en"), timezone: "UTC", language: "en" };
    this.#provider = new ContextProvider(host, { context: environmentContext, initialValue });
    host.addController(this);
  }

  /** The environment now. */
  get value(): CalendarEnvironment {
    return this.#provider.value;
  }

  /** Before each update: made again when what it is made of changed. */
  hostUpdate(): void {
    const { source } = this;
    const config = source.configuration();
    const from = [source.locale(), this.#hour12, config, source.zone()];
    if (!this.#catalogArrived && from.every((part, i) => part === this.#madeFrom[i])) return;
    this.#madeFrom = from;
    this.#catalogArrived = false;
    const locale = safeLocale(source.locale() || config?.locale.preset || navigator.language || "en");
    // A zone's city in the visitor's language comes with the zones part, fetched when first asked for;
    // in English the zone's id names it already, so nothing is fetched.
    const cityLanguage = locale.split("-")[0]!.toLowerCase();
    const cityOf =
      cityLanguage === "en"
        ? undefined
        : (zone: string) => {
            const part = zonesPart();
            if (!part)
              void loadPart("zones").then(
                () => this.host.requestUpdate(),
                () => undefined,
              );
            return part?.cityName(zone, cityLanguage);
          };
    const dates = new DateTexts(locale, this.#hour12 ?? localeUses12Hours(locale), cityOf);
    const language = this.languageFor(config);
    this.#provider.setValue({ texts: this.textsFor(config), dates, timezone: source.zone(), language: loadedCatalog(language) ? language : "en" });
  }

  /** The visitor's 12h/24h choice, kept for the rest of the visit. */
  setHour12(hour12: boolean): void {
    this.#hour12 = hour12;
    try {
      sessionStorage.setItem(HOUR_CYCLE_KEY, String(hour12));
    } catch {
      // Kept for this page only.
    }
    this.host.requestUpdate();
  }

  /** The language tags the visitor's texts are chosen by, first choice first: the `locale` attribute, the event type's preset, the browser's languages. */
  wanted(config: EventTypeConfiguration | null): string[] {
    return [this.source.locale(), config?.locale.preset ?? "", ...(navigator.languages ?? []), navigator.language];
  }

  /** The language of the texts: the first wanted one with a built-in catalog, else English. */
  languageFor(config: EventTypeConfiguration | null): Language {
    return chooseLanguage(this.wanted(config));
  }

  /**
   * The texts for a configuration in its language when that catalog is loaded; else English for
   * now, and the catalog is asked for so the element speaks it once it arrives.
   */
  textsFor(config: EventTypeConfiguration | null): Texts {
    const language = this.languageFor(config);
    const catalog = loadedCatalog(language);
    if (!catalog) {
      void loadCatalog(language).then(
        () => {
          this.#catalogArrived = true;
          this.host.requestUpdate();
        },
        () => undefined,
      );
    }
    return textsWith(textOverrides(config, this.wanted(config)), catalog ?? loadedCatalog("en"), catalog ? language : "en");
  }
}

function rememberedHour12(): boolean | null {
  try {
    const kept = sessionStorage.getItem(HOUR_CYCLE_KEY);
    return kept === null ? null : kept === "true";
  } catch {
    // Storage can be off (privacy settings, sandboxed frames): the locale's clock then.
    return null;
  }
}
