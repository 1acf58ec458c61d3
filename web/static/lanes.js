// The drone lane card game on the match page.
import { GenericPlay } from "./generic.js";

export class LanesPlay extends GenericPlay {}
