// The handle of an icon registered with a map. A CairnMap makes them (`icon`, `loadIcon`,
// `pinIcon`); markers and cluster items take one as their `icon`, and the engine sees its number.

/** An icon registered with a map: give it as a marker's or cluster item's `icon`. */
export class MapIcon {
  /**
   * @param {number} number  the engine's icon number
   * @param {number} width   CSS pixels
   * @param {number} height
   */
  constructor(number, width, height) {
    this.number = number;
    this.width = width;
    this.height = height;
    Object.freeze(this);
  }
}
