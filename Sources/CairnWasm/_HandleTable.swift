import Cairn

/// Live objects of one kind by handle. Handles are (generation << 16) | (slot + 1): a destroyed
/// handle stays invalid when its slot is reused (until the 15-bit generation wraps, after
/// 32,768 reuses of that slot).
struct _HandleTable<Object: AnyObject> {
    private var objects: [Object?] = []
    private var generations: [Int32] = []
    /// Slots whose object was removed, the last removed last: taken before new ones.
    private var freeSlots: [Int] = []
    static var maxSlots: Int { 0x7FFF }

    /// Stores `object` and returns its handle, or nil when every slot is taken.
    mutating func insert(_ object: Object) -> Int32? {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            guard objects.count < _HandleTable.maxSlots else { return nil }
            objects.append(nil)
            generations.append(0)
            slot = objects.count - 1
        }
        objects[slot] = object
        generations[slot] = (generations[slot] + 1) & 0x7FFF
        return (generations[slot] << 16) | Int32(slot + 1)
    }

    private func slot(of handle: Int32) -> Int? {
        let slot = Int(handle & 0xFFFF) - 1
        guard handle > 0, slot >= 0, slot < objects.count, objects[slot] != nil,
              generations[slot] == (handle >> 16) else { return nil }
        return slot
    }

    func object(_ handle: Int32) throws(CairnError) -> Object {
        guard let slot = slot(of: handle), let object = objects[slot] else { throw .invalidHandle }
        return object
    }

    /// Forgets a handle; false when it names nothing.
    mutating func remove(_ handle: Int32) -> Bool {
        guard let slot = slot(of: handle) else { return false }
        objects[slot] = nil
        freeSlots.append(slot)
        return true
    }
}
