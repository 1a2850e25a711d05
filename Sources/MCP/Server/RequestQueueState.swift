internal import MCPPlatform

/// The bookkeeping of ``RequestRunners``: the requests waiting to start, and how many runners
/// drain them.
///
/// A runner is started when a request is queued and fewer than `width` run; a runner ends
/// when it finds the queue empty. So a burst of requests starts at most `width` runners, and an
/// idle connection has none.
struct RequestQueueState<Item> {
    /// The most runners at once.
    let width: Int
    private var items = FIFOQueue<Item>()
    /// The runners started and not yet ended.
    private(set) var runners = 0

    init(width: Int) {
        self.width = max(1, width)
    }

    /// The requests waiting for a runner.
    var waitingCount: Int { items.count }

    /// Queues `item`; returns whether a runner must be started (it is counted already).
    mutating func submit(_ item: Item) -> Bool {
        submit(contentsOf: CollectionOfOne(item)) == 1
    }

    /// Queues `items` in order; returns how many runners must be started (counted already):
    /// one for each item while fewer than `width` run.
    mutating func submit(contentsOf items: some Sequence<Item>) -> Int {
        var count = 0
        for item in items {
            self.items.append(item)
            count += 1
        }
        let starting = min(count, width - runners)
        guard starting > 0 else { return 0 }
        runners += starting
        return starting
    }

    /// The next request for a runner, or `nil` when there is none: the runner must end then
    /// (it is counted out already, and storage grown past 1,024 requests is let go).
    mutating func next() -> Item? {
        if let item = items.popFirst() { return item }
        if items.capacity > 1_024 { items.removeAll() }
        runners -= 1
        return nil
    }
}
