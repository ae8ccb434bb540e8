import ActivityKit
import ArgumentParser
import Foundation
import PizzaDeliveryShared

/// The pizza app: starts, updates and ends the seed's delivery Live Activity through
/// ActivityKit, talking to widgethostd (WIDGETHOST_SOCKET; the app id is com.example.pizza).
@main
struct PizzaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pizza",
        abstract: "Order a pizza and follow it as a Live Activity.",
        subcommands: [Start.self, Update.self, End.self, List.self])

    static func useApp() {
        if ActivityHost.shared.appIdentifier == nil { ActivityHost.shared.appIdentifier = "com.example.pizza" }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start the delivery activity; prints its id and push token.")
        @Option var order = "12345"
        @Option var pizza = "Pepperoni"
        @Option(help: "Minutes until delivery.") var minutes = 30.0
        @Flag(help: "Ask for a push token (pushType: .token).") var token = false

        func run() async throws {
            PizzaCommand.useApp()
            guard ActivityAuthorizationInfo().areActivitiesEnabled else {
                throw ValidationError("Live Activities are not enabled (or widgethostd is not running)")
            }
            do {
                let activity = try PizzaOrders.start(orderNumber: order, pizzaType: pizza, minutes: minutes, pushToken: token)
                let tokenText = activity.pushToken.map { $0.map { String(format: "%02x", $0) }.joined() } ?? "-"
                print(activity.id, tokenText)
            } catch let error as ActivityAuthorizationError {
                FileHandle.standardError.write(Data("pizza: \(error)\n".utf8))
                throw ExitCode(65)
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Update the delivery: status, driver, an alert.")
        @Argument var id: String
        @Option var status: String = "onTheWay"
        @Option var driver: String?
        @Option(help: "Minutes until delivery.") var minutes = 10.0
        @Option(help: "Seconds until the content is stale.") var staleAfter: Double?
        @Flag(help: "Alert: the pizza is here.") var alert = false

        func run() async throws {
            PizzaCommand.useApp()
            guard let activity = PizzaOrders.find(id) else { throw ValidationError("no delivery activity \(id)") }
            guard let status = DeliveryStatus(rawValue: status) else {
                throw ValidationError("--status is one of \(DeliveryStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let state = PizzaDeliveryAttributes.ContentState(
                status: status, estimatedDeliveryTime: Date().addingTimeInterval(minutes * 60), driverName: driver)
            let content = ActivityContent(state: state, staleDate: staleAfter.map { Date().addingTimeInterval($0) })
            if alert {
                await activity.update(
                    content,
                    alertConfiguration: AlertConfiguration(
                        title: "Pizza is here!", body: "Your \(activity.attributes.pizzaType) pizza has arrived", sound: .default))
            } else {
                await activity.update(content)
            }
            print(activity.id, activity.activityState, activity.content.state.status.rawValue)
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the delivery activity.")
        @Argument var id: String
        @Flag(help: "Remove it from the Lock Screen at once.") var immediate = false

        func run() async throws {
            PizzaCommand.useApp()
            guard let activity = PizzaOrders.find(id) else { throw ValidationError("no delivery activity \(id)") }
            var final = activity.content.state
            final.status = .delivered
            await activity.end(
                ActivityContent(state: final, staleDate: nil), dismissalPolicy: immediate ? .immediate : .default)
            print(activity.id, activity.activityState)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The app's delivery activities.")
        func run() async throws {
            PizzaCommand.useApp()
            for activity in Activity<PizzaDeliveryAttributes>.activities {
                print(activity.id, activity.activityState, activity.attributes.orderNumber, activity.content.state.status.rawValue)
            }
        }
    }
}
