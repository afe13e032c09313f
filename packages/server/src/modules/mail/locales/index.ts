import type { MailCatalog, MailLanguage } from "./catalog.ts";
import cs from "./cs.ts";
import de from "./de.ts";
import en from "./en.ts";
import es from "./es.ts";
import fr from "./fr.ts";
import it from "./it.ts";
import ja from "./ja.ts";
import nl from "./nl.ts";
import pl from "./pl.ts";
import pt from "./pt.ts";

/** Every language's texts of the emails and invites. */
export const MAIL_CATALOGS: { [L in MailLanguage]: MailCatalog<L> } = { en, de, fr, es, it, pt, nl, pl, cs, ja };
