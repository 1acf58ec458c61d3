// A d20 skirmish on the match page.
import { GenericPlay } from "./generic.js";

export class SkirmishPlay extends GenericPlay {}
