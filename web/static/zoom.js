// Zoom for a board drawn in the page. The board is drawn at --zoom times
// the size at which all of it fits its frame (1: the whole board); zoomed
// in, it scrolls inside its frame both ways, so that every part of it
// stays in reach and the page itself never scrolls sideways. A player
// zooms with the buttons above the board, by pinching it with two fingers,
// or with Ctrl and the mouse wheel (a trackpad's pinch).
import { h } from "./util.js";

const MAX = 4;
const STEP = 1.5;

export class Zoom {
  // content is the board's element: its CSS size multiplies by
  // var(--zoom), which the frame sets. what names the board for the
  // buttons ("the board", "the map").
  constructor(content, what = "the board") {
    this.z = 1;
    this.view = h("div", { class: "zoom-view" }, content);
    const button = (text, label, f, cls = "") => h("button", { type: "button", class: "zoom-button " + cls, "aria-label": label, title: label, onclick: f }, text);
    this.outButton = button("−", "Zoom out", () => this.set(this.z / STEP));
    this.inButton = button("+", "Zoom in", () => this.set(this.z * STEP));
    this.wholeButton = button("Whole board", `See all of ${what}`, () => this.set(1), "whole");
    this.el = h("div", { class: "zoomable", style: "--zoom:1" },
      h("div", { class: "zoom-tools", role: "group", "aria-label": `zoom ${what}` }, this.outButton, this.inButton, this.wholeButton),
      this.view);
    this.pinch();
    this.update();
  }

  // set zooms to z, keeping the point at (x, y) of the frame (its middle
  // by default) where it is.
  set(z, x, y) {
    z = Math.min(MAX, Math.max(1, z));
    if (Math.abs(z - 1) < 0.05) z = 1;
    const v = this.view;
    if (x === undefined) {
      x = v.clientWidth / 2;
      y = v.clientHeight / 2;
    }
    const fx = (v.scrollLeft + x) / (v.scrollWidth || 1), fy = (v.scrollTop + y) / (v.scrollHeight || 1);
    this.z = z;
    this.el.style.setProperty("--zoom", String(z));
    // Reading the sizes lays the frame out again at the new zoom.
    v.scrollLeft = fx * v.scrollWidth - x;
    v.scrollTop = fy * v.scrollHeight - y;
    this.update();
  }

  update() {
    this.el.dataset.zoom = this.z.toFixed(2);
    this.el.classList.toggle("zoomed", this.z > 1);
    this.outButton.disabled = this.z <= 1;
    this.inButton.disabled = this.z >= MAX;
    this.wholeButton.hidden = this.z <= 1;
  }

  // pinch follows two fingers on the board, and Ctrl with the wheel: the
  // page's own zoom is left alone there, the board's is changed instead.
  pinch() {
    const v = this.view;
    let start = null;
    const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY) || 1;
    const middle = (t) => {
      const r = v.getBoundingClientRect();
      return [(t[0].clientX + t[1].clientX) / 2 - r.left, (t[0].clientY + t[1].clientY) / 2 - r.top];
    };
    v.addEventListener("touchstart", (e) => {
      if (e.touches.length === 2) start = { d: spread(e.touches), z: this.z };
    }, { passive: true });
    v.addEventListener("touchmove", (e) => {
      if (e.touches.length !== 2 || !start) return;
      e.preventDefault();
      this.set(start.z * (spread(e.touches) / start.d), ...middle(e.touches));
    }, { passive: false });
    v.addEventListener("touchend", (e) => {
      if (e.touches.length < 2) start = null;
    });
    v.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const r = v.getBoundingClientRect();
      this.set(this.z * Math.exp(-e.deltaY / 300), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
  }
}

// unitsPerPixel is how many of an SVG drawing's units one pixel of the
// screen shows, as the drawing is drawn now.
export function unitsPerPixel(el) {
  const box = el.viewBox?.baseVal;
  const w = el.getBoundingClientRect().width;
  return box && box.width && w ? box.width / w : 1;
}

// FINGER is the smallest target a finger taps reliably, in pixels.
export const FINGER = 44;
