/// The transfers outlet: keeps how each remote file the batch fetched reached the disk
/// (``AssetTransfer``: network bytes, cache bytes, time), in the order they finished, and hands
/// them to the report at completion (``PreloadReport/transfers``). A batch of local files
/// records nothing here.
final class TransferOutlet: BatchOutlet {
    private var transfers: [AssetTransfer] = []

    func fetched(_ transfer: AssetTransfer, ledger: borrowing BatchState) {
        transfers.append(transfer)
    }

    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) {
        report.transfers = transfers
        transfers = []
    }
}
